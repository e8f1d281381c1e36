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

/**
 * A copy of a JSON-like value with every string masked (object keys included), so JSON output stays valid. Masking is a
 * pure function of the string, so each distinct string is scanned once: a report repeats its keys and enum values
 * tens of thousands of times.
 */
export function maskSecretsDeep<T>(value: T, seen = new Map<string, string>()): T {
  const mask = (text: string) => {
    let masked = seen.get(text);
    if (masked === undefined) seen.set(text, (masked = maskSecretsInText(text)));
    return masked;
  };
  if (typeof value === 'string') return mask(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => maskSecretsDeep(v, seen)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [mask(k), maskSecretsDeep(v, seen)])) as T;
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
