// Codex's file-name rules: rollout summary stems (timestamp + base62 hash) and ad-hoc note names.

const BASE62 = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const SHORT_HASH_SPACE = 14_776_336; // 62^4

/** `rollout_summary_file_stem`'s 4-character hash: low 32 bits of a UUID (or a 31-rolling hash of the id), mod 62^4, big-endian. */
export function rolloutShortHash(threadId: string): string {
  const hex = threadId.replace(/-/g, '');
  let value: number;
  if (/^[0-9a-f]{32}$/i.test(hex)) {
    value = parseInt(hex.slice(24), 16) % SHORT_HASH_SPACE;
  } else {
    let seed = 0;
    for (const byte of new TextEncoder().encode(threadId)) seed = (Math.imul(seed, 31) + byte) >>> 0;
    value = seed % SHORT_HASH_SPACE;
  }
  let out = '';
  for (let i = 0; i < 4; i++) {
    out = BASE62.charAt(value % 62) + out;
    value = Math.floor(value / 62);
  }
  return out;
}

/** `YYYY-MM-DDTHH-MM-SS` (UTC) of a unix-millisecond time. */
export function fileTimestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().slice(0, 19).replace(/:/g, '-');
}

/** The unix milliseconds in a version-7 UUID, or null. */
export function uuidV7Millis(id: string): number | null {
  const m = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.exec(id);
  return m ? parseInt(`${m[1]}${m[2]}`, 16) : null;
}

/**
 * What Codex's current `rollout_summary_file_stem` gives a thread: the `YYYY-MM-DDTHH-MM-SS` part (from a v7 UUID,
 * else `updated_at`; null for v1/v6 UUIDs, whose Gregorian timestamps we do not convert) and the 4-character hash.
 */
export function expectedStemParts(threadId: string, updatedAt: string | null): { timestamp: string | null; hash: string } {
  const hash = rolloutShortHash(threadId);
  const version = /^[0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/i.exec(threadId)?.[1];
  if (version === '1' || version === '6') return { timestamp: null, hash };
  const fromUpdated = updatedAt ? Date.parse(updatedAt) : NaN;
  const ms = uuidV7Millis(threadId) ?? (Number.isFinite(fromUpdated) ? fromUpdated : null);
  const valid = ms !== null && ms >= 0 && ms <= 253_402_300_799_000;
  return { timestamp: valid ? fileTimestamp(ms) : null, hash };
}

/** The `<ts>-<hash4>` prefix Codex gives a thread's rollout summary file, or null when it cannot be derived. */
export function expectedStemPrefix(threadId: string, updatedAt: string | null): string | null {
  const parts = expectedStemParts(threadId, updatedAt);
  return parts.timestamp === null ? null : `${parts.timestamp}-${parts.hash}`;
}

export const ROLLOUT_SUMMARY_NAME = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-([0-9A-Za-z]{4})(?:-([a-z0-9_]{1,60}))?\.md$/;

/** The `memories.add_ad_hoc_note` tool's schema: pattern plus 24..128 characters. */
export const AD_HOC_NOTE_NAME = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-[a-z0-9][a-z0-9-]{0,79}\.md$/;
export const AD_HOC_NOTE_NAME_MIN = 24;
export const AD_HOC_NOTE_NAME_MAX = 128;

export function isValidAdHocNoteName(name: string): boolean {
  return name.length >= AD_HOC_NOTE_NAME_MIN && name.length <= AD_HOC_NOTE_NAME_MAX && AD_HOC_NOTE_NAME.test(name);
}
