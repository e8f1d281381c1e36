// Opens one of Codex's SQLite files strictly read-only while Codex may be writing it, and turns every failure into a DbProblem.
import type Database from 'better-sqlite3';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { DbName, DbProblem, DbProblemKind, DbRead } from '../../../shared/health';
import { StudioFailure } from '../platform/errors';
import { NO_CAP, readRegularFile, readRegularHead } from '../platform/regular-file';
import { errorCode, errorDetail, storageTrouble } from '../platform/storage-faults';
import { openSqlite } from '../platform/sqlite';

export interface OpenOptions {
  /** better-sqlite3's busy timeout: how long a read waits for a writer's lock before SQLITE_BUSY. */
  busyTimeoutMs?: number;
  /** Largest WAL-mode file read into memory as a snapshot; bigger ones are opened directly. */
  snapshotMaxBytes?: number;
}

export interface OpenedDb {
  db: Database.Database;
  read: DbRead;
  close: () => void;
}

export type OpenResult = { ok: true; handle: OpenedDb } | { ok: false; read: DbRead; problem: DbProblem };

export const DEFAULT_BUSY_TIMEOUT_MS = 2000;
const DEFAULT_SNAPSHOT_MAX_BYTES = 256 * 1024 * 1024;
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');
const HEADER_BYTES = 100;

const dbLabels: Record<DbName, string> = {
  state: 'the thread catalog',
  memories_v1: 'the v1 memory DB',
  memories_v2: 'the v2 memory DB',
};

const kindHints: Record<DbProblemKind, string> = {
  missing: 'Codex creates it the first time a root session runs with memories enabled; nothing to do until then.',
  locked: 'Codex is probably writing to it (an extraction or consolidation may be running). Try again in a moment.',
  corrupt:
    'Memory Studio changes nothing in it. Check the file with `sqlite3 <file> "PRAGMA integrity_check"`; Codex may rebuild a damaged DB.',
  schema: 'This Codex build may be older or newer than Memory Studio knows; the health page shows what could be read.',
  unreadable: 'Check that the file and its -wal/-shm companions are readable by your user (a read-only reader still needs them).',
};

/** The problem record for `db`, with the default hint for its kind unless one is given. */
export function dbProblem(db: DbName, path: string, kind: DbProblemKind, message: string, hint?: string): DbProblem {
  return { db, path, kind, message, hint: hint ?? kindHints[kind] };
}

export function describeDb(db: DbName, path: string): string {
  return `${dbLabels[db]} (${basename(path)})`;
}

/** Maps better-sqlite3 / fs errors to the five problem kinds with a message that names the file (the platform's classifier). */
export function classifyDbError(db: DbName, path: string, error: unknown): DbProblem {
  const what = describeDb(db, path);
  if (error instanceof StudioFailure) return dbProblem(db, path, 'unreadable', `${what} cannot be opened: ${error.message}`, error.hint);
  const code = errorCode(error);
  const detail = errorDetail(error);
  switch (storageTrouble(error)) {
    case 'missing':
      return dbProblem(db, path, 'missing', `${what} does not exist.`);
    case 'locked':
      return dbProblem(db, path, 'locked', `${what} is locked by another connection (${detail}).`);
    case 'corrupt':
      return code === 'SQLITE_NOTADB'
        ? dbProblem(db, path, 'corrupt', `${what} is not a SQLite database (${detail}).`)
        : dbProblem(db, path, 'corrupt', `${what} is damaged (${detail}).`);
    case 'schema':
      return dbProblem(db, path, 'schema', `${what} does not have the expected tables or columns (${detail}).`);
    case 'cannot-open':
      return dbProblem(db, path, 'unreadable', `${what} cannot be opened (${detail}); check that it is a file you can read.`);
    case 'read-only':
      return dbProblem(db, path, 'unreadable', `${what} is read-only here (${detail}).`);
    case 'denied':
      return dbProblem(db, path, 'unreadable', `${what} cannot be read: permission denied (${detail}).`);
    case 'io':
      return dbProblem(db, path, 'unreadable', `${what} could not be read (${detail}).`);
    default:
      return dbProblem(db, path, 'unreadable', `${what} could not be read (${code || 'error'}: ${detail}).`);
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The first 100 bytes; a FIFO swapped in since the stat is refused, never waited on (SQLite follows a symlink too). */
async function readHeader(path: string): Promise<Buffer> {
  return readRegularHead(path, path, HEADER_BYTES, { follow: true });
}

/** A header problem found before SQLite sees the file; an empty file is a valid empty database. */
function headerProblem(db: DbName, path: string, header: Buffer, size: number): DbProblem | null {
  if (size === 0) return null;
  if (header.length < HEADER_BYTES)
    return dbProblem(db, path, 'corrupt', `${describeDb(db, path)} is truncated: ${size} bytes, shorter than SQLite's 100-byte header.`);
  if (!header.subarray(0, 16).equals(SQLITE_MAGIC))
    return dbProblem(db, path, 'corrupt', `${describeDb(db, path)} is not a SQLite database (its header is wrong).`);
  return null;
}

/**
 * A WAL-mode file with no -wal beside it has nothing uncheckpointed, so its bytes are the whole database. Reading
 * them into memory (header patched to rollback mode, which in-memory SQLite needs) avoids a read-only connection
 * creating -wal/-shm next to Codex's DB. Any change during the read (size, mtime, a -wal appearing) falls back.
 */
async function trySnapshot(path: string, size: number, mtimeMs: number, maxBytes: number): Promise<Buffer | null> {
  if (size > maxBytes) return null;
  const { bytes } = await readRegularFile(path, path, NO_CAP, undefined, { follow: true });
  const after = await stat(path);
  if (after.size !== size || after.mtimeMs !== mtimeMs || bytes.length !== size || (await exists(`${path}-wal`))) return null;
  bytes[18] = 1;
  bytes[19] = 1;
  return bytes;
}

function openDirect(path: string, timeout: number): Database.Database {
  return openSqlite(path, { readonly: true, fileMustExist: true, timeout });
}

function openSnapshot(bytes: Buffer): Database.Database {
  // better-sqlite3 accepts a Buffer in place of the file name: an in-memory copy, so nothing is created beside Codex's file.
  return openSqlite(bytes, { readonly: true });
}

function journalModeOf(header: Buffer): 'wal' | 'rollback' {
  return header.length >= 20 && header[18] === 2 && header[19] === 2 ? 'wal' : 'rollback';
}

/** A snapshot of a WAL-mode file at rest when it is small enough, else a direct read-only connection. */
async function openReadOnly(
  path: string,
  info: { size: number; mtimeMs: number },
  journalMode: 'wal' | 'rollback',
  options: OpenOptions,
): Promise<{ db: Database.Database; mode: 'snapshot' | 'direct' }> {
  const snapshot =
    journalMode === 'wal' && !(await exists(`${path}-wal`))
      ? await trySnapshot(path, info.size, info.mtimeMs, options.snapshotMaxBytes ?? DEFAULT_SNAPSHOT_MAX_BYTES)
      : null;
  return snapshot
    ? { db: openSnapshot(snapshot), mode: 'snapshot' }
    : { db: openDirect(path, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS), mode: 'direct' };
}

/**
 * Another of Codex's SQLite files (`thread_history_1.sqlite`, `logs_2.sqlite`, …) opened the way openCodexDb opens
 * the ones Memory Studio reads, for a look at its migration records. Throws an Error saying what is wrong.
 */
export async function openCodexFile(path: string, options: OpenOptions = {}): Promise<Database.Database> {
  const info = await stat(path);
  if (!info.isFile()) throw new Error(`${basename(path)} is not a regular file.`);
  const header = await readHeader(path);
  if (info.size > 0 && (header.length < HEADER_BYTES || !header.subarray(0, 16).equals(SQLITE_MAGIC)))
    throw new Error(`${basename(path)} is not a SQLite database (its header is wrong or truncated).`);
  const { db } = await openReadOnly(path, info, journalModeOf(header), options);
  try {
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    closeQuietly(db);
    throw error;
  }
}

/** Opens `path` read-only, never creating it; problems come back as data, never as a throw. */
export async function openCodexDb(db: DbName, path: string, options: OpenOptions = {}): Promise<OpenResult> {
  const read: DbRead = { db, path, exists: false, opened: false, mode: null, journalMode: null };
  let handle: Database.Database | null = null;
  try {
    const info = await stat(path);
    read.exists = true;
    if (!info.isFile())
      return { ok: false, read, problem: dbProblem(db, path, 'unreadable', `${describeDb(db, path)} is not a regular file.`) };
    const header = await readHeader(path);
    const bad = headerProblem(db, path, header, info.size);
    if (bad) return { ok: false, read, problem: bad };
    read.journalMode = journalModeOf(header);
    const connection = await openReadOnly(path, info, read.journalMode, options);
    handle = connection.db;
    read.mode = connection.mode;
    // The first real read is where SQLite reports NOTADB, CORRUPT or BUSY; do it now so callers get one clear problem.
    handle.prepare('SELECT count(*) FROM sqlite_master').get();
    read.opened = true;
    const opened = handle;
    return { ok: true, handle: { db: opened, read, close: () => closeQuietly(opened) } };
  } catch (error) {
    if (handle) closeQuietly(handle);
    read.opened = false;
    return { ok: false, read, problem: classifyDbError(db, path, error) };
  }
}

export function closeQuietly(db: Database.Database): void {
  try {
    if (db.open) db.close();
  } catch {
    // Closing a read-only connection can only fail if it is already gone; nothing to report.
  }
}
