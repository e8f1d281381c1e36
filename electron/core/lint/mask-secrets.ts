// Masks every secret in text meant for output (CLI JSON and text, logs): first four characters, then `****`.
import { findSecretSpans, maskSecret } from './secrets';

/** `text` with each secret (the secret itself, not its key or `Bearer`) shown as `abcd****`. */
export function maskSecretsInText(text: string): string {
  const spans = findSecretSpans(text);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.secretStart) + maskSecret(text.slice(s.secretStart, s.secretEnd));
    at = s.secretEnd;
  }
  return out + text.slice(at);
}

/** A copy of a JSON-like value with every string masked (object keys included), so JSON output stays valid. */
export function maskSecretsDeep<T>(value: T): T {
  if (typeof value === 'string') return maskSecretsInText(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => maskSecretsDeep(v)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [maskSecretsInText(k), maskSecretsDeep(v)])) as T;
  }
  return value;
}

/**
 * `text` with each secret masked as `abcd****` and the secret's line breaks kept after the mask, so every line after
 * it keeps its number (the index stores chunks by line; a masked multi-line private key must not shift them).
 */
export function maskSecretsKeepingLines(text: string): string {
  const spans = findSecretSpans(text);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const s of spans) {
    const secret = text.slice(s.secretStart, s.secretEnd);
    out += text.slice(at, s.secretStart) + maskSecret(secret) + '\n'.repeat(secret.split('\n').length - 1);
    at = s.secretEnd;
  }
  return out + text.slice(at);
}
