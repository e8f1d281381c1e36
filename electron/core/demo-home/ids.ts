// Codex identifiers and names: UUIDv7 thread ids, rollout summary stems, session file names and timestamps.
import { fileTimestamp, rolloutShortHash as shortHash, uuidV7Millis } from '../formats/names';
import type { Rng } from './prng';

// One definition of Codex's naming rules: the generator writes what the parsers check.
export { fileTimestamp, shortHash, uuidV7Millis };
export { rfc3339, rolloutSummaryStem, sanitizeRolloutSlug } from '../formats/phase2-files';

/** A version-7 UUID whose first 48 bits are `ms` (unix milliseconds); the rest comes from `rng`. */
export function uuidV7(ms: number, rng: Rng): string {
  const b = rng.bytes(16);
  let t = Math.floor(ms);
  for (let i = 5; i >= 0; i--) {
    b[i] = t % 256;
    t = Math.floor(t / 256);
  }
  b[6] = 0x70 | ((b[6] ?? 0) & 0x0f);
  b[8] = 0x80 | ((b[8] ?? 0) & 0x3f);
  return formatUuid(b);
}

/** A random version-4 UUID (ownership tokens). */
export function uuidV4(rng: Rng): string {
  const b = rng.bytes(16);
  b[6] = 0x40 | ((b[6] ?? 0) & 0x0f);
  b[8] = 0x80 | ((b[8] ?? 0) & 0x3f);
  return formatUuid(b);
}

function formatUuid(b: Uint8Array): string {
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** `2026-03-02T17:05:44.123Z`, the timestamp style of rollout JSONL lines. */
export function jsonlTimestamp(ms: number): string {
  return new Date(Math.floor(ms)).toISOString();
}

/** `YYYY-MM-DD` (UTC). */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<uuid>.jsonl` relative to CODEX_HOME (UTC). */
export function sessionRelPath(threadId: string, createdMs: number, archived: boolean): string {
  const ts = fileTimestamp(createdMs);
  const name = `rollout-${ts}-${threadId}.jsonl`;
  if (archived) return `archived_sessions/${name}`;
  return `sessions/${ts.slice(0, 4)}/${ts.slice(5, 7)}/${ts.slice(8, 10)}/${name}`;
}

/** Lowercase, hyphenated ASCII slug for ad-hoc note names. */
export function noteSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/, '');
}
