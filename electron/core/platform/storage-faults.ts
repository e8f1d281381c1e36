// What an error from SQLite or the file system says about the storage it came from: the one classifier every boundary uses.
import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The trouble a storage error means, whatever file it came from: `missing` (no such file), `locked` (another
 * connection holds the lock), `corrupt` (not a database, or damaged), `schema` (a table or column is not there),
 * `full` (no space, a quota, a file-size limit), `read-only`, `denied` (permissions), `cannot-open`, `io` (the disk
 * failed a read or write). Null: not a storage fault (a bug, or a failure with its own message).
 */
export type StorageTrouble = 'missing' | 'locked' | 'corrupt' | 'schema' | 'full' | 'read-only' | 'denied' | 'cannot-open' | 'io';

/** SQLite's words for a table or column that is not there (`no such table: jobs`, `table jobs has no column named x`). */
const SCHEMA_MESSAGE = /no such (table|column)|has no column named/;

export function errorCode(error: unknown): string {
  return String((error as { code?: unknown } | null)?.code ?? '');
}

export function errorDetail(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function storageTrouble(error: unknown): StorageTrouble | null {
  const code = errorCode(error);
  if (code === 'ENOENT') return 'missing';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'locked';
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) return 'corrupt';
  if (code.startsWith('SQLITE_ERROR') && SCHEMA_MESSAGE.test(errorDetail(error))) return 'schema';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT' || code === 'EFBIG') return 'full';
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS') return 'read-only';
  if (code === 'EACCES' || code === 'EPERM' || code.startsWith('SQLITE_PERM') || code.startsWith('SQLITE_AUTH')) return 'denied';
  if (code.startsWith('SQLITE_CANTOPEN')) return 'cannot-open';
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') return 'io';
  return null;
}

/** Below this much free space, a failed write on that disk is taken for a full disk (SQLite often says "disk I/O error"). */
const NEARLY_FULL_BYTES = 1024 * 1024;

/** Bytes free for this user on the disk holding `path` (or its nearest existing parent); null when unknown. */
export function freeBytes(path: string): number | null {
  for (let dir = path; ; dir = dirname(dir)) {
    try {
      const info = statfsSync(dir);
      return info.bavail * info.bsize;
    } catch {
      if (dirname(dir) === dir) return null;
    }
  }
}

/** An I/O error on a disk with (almost) no space left is a full disk: say that, not "disk I/O error". */
export function troubleAt(error: unknown, path: string | undefined): StorageTrouble | null {
  const trouble = storageTrouble(error);
  if (trouble !== 'io' || !path) return trouble;
  const free = freeBytes(path);
  return free !== null && free < NEARLY_FULL_BYTES ? 'full' : trouble;
}

/** "the disk is full", "the disk quota is exhausted"… for a `full` error, in the person's words. */
export function fullWords(error: unknown): string {
  const code = errorCode(error);
  if (code === 'EDQUOT') return 'the disk quota is exhausted';
  if (code === 'EFBIG') return 'the file would pass the size limit of this process or file system (EFBIG, e.g. `ulimit -f`)';
  return 'the disk is full';
}

/** Why a write of `path` failed, in words, for the troubles a write can meet. */
export function writeTroubleWords(trouble: StorageTrouble, error: unknown): string {
  switch (trouble) {
    case 'full':
      return fullWords(error);
    case 'read-only':
      return 'the disk is read-only';
    case 'denied':
      return 'permission denied';
    case 'io':
      return `the disk reported an input/output error (${errorDetail(error)})`;
    default:
      return errorDetail(error);
  }
}
