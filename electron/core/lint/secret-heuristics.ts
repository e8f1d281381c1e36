// Secrets without a fixed token shape: private-key blocks, and long random-looking values under secret-like keys.
import { group } from '../platform/indexed';
import { REDACTED_SECRET } from '../codex/constants';
import { matches, type SecretCandidate, type SecretRuleSpec } from './secret-rules';

const PRIVATE_KEY_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY( BLOCK)?-----/g;
const PEM_HEADER_LINE = /^[A-Za-z][A-Za-z-]*: \S/;
const BASE64_LINE = /^[A-Za-z0-9+/=]{16,}$/;
/** A real key (even a tiny EC key) has far more material than this; a bare header in prose is only a mention. */
const MIN_KEY_MATERIAL = 20;
/** The largest PEM keys (RSA 16384) stay well under this; an END further away belongs to something else. */
const MAX_BLOCK_CHARS = 32_768;

/** Where the key material of an unterminated block ends: the last PEM header or base64 line after the BEGIN line. */
function unterminatedEnd(text: string, bodyStart: number): number | null {
  let end: number | null = null;
  let lastWasHeader = false;
  const lines = text.slice(bodyStart, bodyStart + MAX_BLOCK_CHARS).split(/(?<=\n)/);
  let offset = bodyStart;
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    const lineEnd = offset + raw.replace(/\s+$/, '').length;
    offset += raw.length;
    if (i === 0 && line === '') continue; // the break right after the BEGIN line
    if (BASE64_LINE.test(line)) [end, lastWasHeader] = [lineEnd, false];
    else if (PEM_HEADER_LINE.test(line)) [end, lastWasHeader] = [lineEnd, true];
    else if (line === '' && lastWasHeader) lastWasHeader = false;
    else break;
  }
  return end;
}

function findPrivateKeys(text: string): SecretCandidate[] {
  const out: SecretCandidate[] = [];
  let resumeAt = 0;
  for (const m of matches(PRIVATE_KEY_BEGIN, text)) {
    if (m.index < resumeAt) continue;
    const bodyStart = m.index + m[0].length;
    const endMarker = `-----END ${m[1] ?? ''}PRIVATE KEY${m[2] ?? ''}-----`;
    const endAt = text.indexOf(endMarker, bodyStart);
    const nextBegin = text.indexOf('-----BEGIN ', bodyStart);
    const terminated = endAt !== -1 && endAt - bodyStart <= MAX_BLOCK_CHARS && (nextBegin === -1 || nextBegin > endAt);
    const end = terminated ? endAt + endMarker.length : unterminatedEnd(text, bodyStart);
    if (end === null) continue;
    const body = text.slice(bodyStart, terminated ? endAt : end);
    if (body.replace(/[^A-Za-z0-9+/]/g, '').length < MIN_KEY_MATERIAL) continue;
    const secretStart = bodyStart + body.search(/\S/);
    out.push({
      rule: 'secrets/private-key',
      start: m.index,
      end,
      replacement: REDACTED_SECRET,
      secretStart,
      secretEnd: bodyStart + body.trimEnd().length,
    });
    resumeAt = end;
  }
  return out;
}

export const PRIVATE_KEY_RULE: SecretRuleSpec = {
  rule: 'secrets/private-key',
  severity: 'error',
  label: 'a private key',
  codexRedacts: false,
  keywords: ['private key'],
  window: 'block',
  find: findPrivateKeys,
};

/** Shannon entropy in bits per character. */
export function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const n = [...value].length;
  let bits = 0;
  for (const c of counts.values()) bits -= (c / n) * Math.log2(c / n);
  return bits;
}

/**
 * The entropy a value needs, by length. Simulating 20,000 uniformly random alphanumeric strings per length,
 * the 1st percentile of their entropy is 3.65 bits at 20 chars, 3.86 at 24, 4.20 at 32, 4.45 at 40 and 4.90
 * at 64; `log2(len) - 0.75`, capped at 4.2, stays at or under it, so about 99 % of random keys pass. Hex is
 * at most 4 bits a char (random 32-char hex: median 3.38), so it gets detect-secrets' hex limit of 3.0.
 */
export function entropyThreshold(value: string): number {
  if (/^(?:[0-9a-f]+|[0-9A-F]+)$/.test(value)) return 3.0;
  return Math.min(4.2, Math.log2(value.length) - 0.75);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** git object ids (SHA-1, SHA-256) and SHA-256 content hashes: identifiers, not credentials. */
const HASH_HEX = /^(?:[0-9a-f]{40}|[0-9a-f]{64}|[0-9A-F]{40}|[0-9A-F]{64})$/;
/** A rollout summary stem (`YYYY-MM-DDTHH-MM-SS-<hash4>…`) or a file name with an extension. */
const FILE_LIKE = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}|\.(?:md|json|jsonl|txt|toml|ya?ml|ts|js|py|rs|sh|log|sqlite|png|jpe?g)$/i;

/** Only hex digits (any case, any length): a digest, a commit or object id, a checksum. */
const ALL_HEX = /^[0-9a-f]+$/i;

/**
 * Hex digests (commit and object ids, SHA-256 sums) and UUIDs: identifiers that are random by construction, so
 * entropy says nothing about them. A rule that has only entropy and nearby words to go on never flags one.
 */
export function isHexOrUuid(value: string): boolean {
  return ALL_HEX.test(value) || UUID.test(value);
}

/** UUIDs (thread ids), git object ids and content hashes, rollout stems, file names and paths: not credentials. */
export function isIdentifierLike(value: string): boolean {
  return UUID.test(value) || HASH_HEX.test(value) || FILE_LIKE.test(value) || /^[./~]/.test(value);
}

/** A value that looks like a random credential rather than a word, path, id or hash. */
export function looksRandom(value: string): boolean {
  if (value.length < 20 || value.includes(REDACTED_SECRET)) return false;
  if (isIdentifierLike(value)) return false;
  return mixedAndRandom(value);
}

/** Mixes character classes as random keys do (hex: digits and letters; else upper, lower and digits) with high entropy. */
export function mixedAndRandom(value: string): boolean {
  const hex = /^(?:[0-9a-f]+|[0-9A-F]+)$/.test(value);
  // Random keys mix classes: hex has digits and letters; anything else has upper, lower and digits (≈ 91 % of
  // random 20-char alphanumerics do, 99 % at 32); snake_case words and dated slugs do not.
  const mixed = hex
    ? /\d/.test(value) && /[a-f]/i.test(value)
    : /[a-z]/.test(value) && /[A-Z]/.test(value) && (/\d/.test(value) || shuffledCase(value));
  return mixed && shannonEntropy(value) >= entropyThreshold(value);
}

/**
 * A key with no digit that is still random: about 1 in 280 random 32-character alphanumerics has none (1 in 30 at 20),
 * and a probe of planted keys found one slipping through. Its letters switch case as coin flips do: both cases common,
 * many single lowercase letters and many runs of two or more capitals. Names made of words, camelCase or PascalCase
 * ("getUserIdByEmailOrPhone", "HTTPServerURLConfig…"), have lowercase runs of whole words and single capitals, and stay
 * unflagged (a simulation: 87% of random letter-only keys pass, 0.01% of PascalCase names of short words).
 */
function shuffledCase(value: string): boolean {
  const letters = value.replace(/[^A-Za-z]/g, '');
  if (letters.length < 24) return false;
  const upper = letters.replace(/[^A-Z]/g, '').length / letters.length;
  if (upper < 0.25 || upper > 0.75) return false;
  const lowerRuns = letters.match(/[a-z]+/g) ?? [];
  const upperRuns = letters.match(/[A-Z]+/g) ?? [];
  const share = (runs: string[], test: (run: string) => boolean) => (runs.length === 0 ? 0 : runs.filter(test).length / runs.length);
  return share(lowerRuns, (r) => r.length === 1) >= 0.25 && share(upperRuns, (r) => r.length >= 2) >= 0.25;
}

/** `KEY = value`, `"key": "value"`, `key: value` with a secret-like key name (compound names included). */
const SECRET_KEY_ASSIGNMENT =
  /(?<![A-Za-z0-9_])([A-Za-z0-9_.-]*?(?:api[_-]?key|apikey|token|secret|passw(?:or)?d|pwd|credentials?|auth[_-]?key|access[_-]?key|private[_-]?key|signing[_-]?key)[A-Za-z0-9_.-]*)(["']?)([ \t]*(?::=|=>|[:=])[ \t]*)(["']?)([A-Za-z0-9+/=_.~-]{20,})/gi;

export const HIGH_ENTROPY_RULE: SecretRuleSpec = {
  rule: 'secrets/high-entropy-assignment',
  severity: 'warning',
  label: 'a random-looking value under a secret-like key',
  codexRedacts: false,
  keywords: ['key', 'token', 'secret', 'passw', 'pwd', 'credential'],
  window: 'lines',
  find: (text) => {
    const out: SecretCandidate[] = [];
    for (const m of matches(SECRET_KEY_ASSIGNMENT, text)) {
      const value = group(m, 5);
      if (!looksRandom(value)) continue;
      const start = m.index + m[0].length - value.length;
      out.push({
        rule: 'secrets/high-entropy-assignment',
        start,
        end: start + value.length,
        replacement: REDACTED_SECRET,
        secretStart: start,
        secretEnd: start + value.length,
      });
    }
    return out;
  },
};
