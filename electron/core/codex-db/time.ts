// Unix seconds as Codex stores them, turned into the report's `{ seconds, iso }` pairs.
import type { UnixTime } from '../../../shared/health';

/** Codex writes whole unix seconds (UTC); anything else in the column is reported as absent rather than guessed. */
export function unixTime(seconds: unknown): UnixTime | null {
  if (typeof seconds === 'bigint') return unixTime(Number(seconds));
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return null;
  const whole = Math.trunc(seconds);
  const date = new Date(whole * 1000);
  if (!Number.isFinite(date.getTime())) return null;
  return { seconds: whole, iso: date.toISOString() };
}

/** A timestamp that must exist (for example `now`). */
export function requiredTime(seconds: number): UnixTime {
  return unixTime(seconds) ?? { seconds: 0, iso: new Date(0).toISOString() };
}

/** `2026-03-02T17:05:44.123Z` (rollout JSONL) to whole unix seconds, or null. */
export function isoToUnixTime(value: unknown): UnixTime | null {
  if (typeof value !== 'string' || value === '') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? unixTime(Math.floor(ms / 1000)) : null;
}

export function nowSeconds(now: Date = new Date()): number {
  return Math.floor(now.getTime() / 1000);
}

/** Integer column values: better-sqlite3 gives numbers (or bigints in safe-integers mode); anything else is null. */
export function intOrNull(value: unknown): number | null {
  if (typeof value === 'bigint') return Number(value);
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : null;
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
