// Masks every secret in text meant for output (CLI JSON and text, logs): first four characters, then `****`.
import { isPlainObject } from '../platform/plain-object';
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
 * A JSON-like value with every string masked (object keys included), so JSON output stays valid. Masking is a pure
 * function of the string, so each distinct string is scanned once: a report repeats its keys and enum values tens of
 * thousands of times. Arrays and plain objects holding no secret come back as they are (a 12 MB import plan is
 * 440,000 strings, almost none a secret: copying them cost four times their scan); any that holds one is a copy, so
 * the value given is never changed. Other objects become plain copies of their own enumerable properties.
 */
export function maskSecretsDeep<T>(value: T, seen = new Map<string, string>()): T {
  const mask = (text: string) => {
    let masked = seen.get(text);
    if (masked === undefined) seen.set(text, (masked = maskSecretsInText(text)));
    return masked;
  };
  return maskValue(value, mask) as T;
}

function maskValue(value: unknown, mask: (text: string) => string): unknown {
  if (typeof value === 'string') return mask(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const masked = maskValue(item, mask);
      if (copy === null && masked !== item) copy = value.slice(0, i);
      copy?.push(masked);
    }
    return copy ?? value;
  }
  if (!isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [mask(k), maskValue(v, mask)]));
  // Nothing is allocated until a key or value changes: what came before it is then copied as it is. (Entries, not
  // assignments: a key "__proto__" stays a property.)
  const keys = Object.keys(value);
  let entries: [string, unknown][] | null = null;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const item = value[key];
    const maskedKey = mask(key);
    const masked = maskValue(item, mask);
    if (entries === null && (maskedKey !== key || masked !== item)) entries = keys.slice(0, i).map((k) => [k, value[k]]);
    entries?.push([maskedKey, masked]);
  }
  return entries === null ? value : Object.fromEntries(entries);
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
