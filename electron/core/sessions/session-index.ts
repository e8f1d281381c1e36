// Thread id <-> rollout path: the thread catalog's rollout_path first, the file-name UUID scan of the sessions folders second.
import { stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { read } from 'node:fs';
import { join } from 'node:path';
import type { HomeInfo } from '../../../shared/domain';
import type { SessionIndex, SessionIndexEntry } from '../../../shared/sessions';
import { STATE_DB_FILE } from '../codex/constants';
import { openCodexDb } from '../codex-db/open-db';
import { closeQuietly, openRegularFile } from '../platform/regular-file';
import { readThreadCatalog, type ThreadRow } from '../codex-db/threads';
import { unixTime } from '../codex-db/time';
import { canonicalThreadId } from './citations';
import { interpretLine } from './rollout-lines';
import { mapLimit } from '../platform/map-limit';
import { listSessionFiles, type SessionFile } from './session-files';

export interface SessionIndexOptions {
  /** Read each file's session_meta line: for files the catalog does not know (default), for all, or never. */
  readMeta?: 'missing' | 'all' | 'none';
  concurrency?: number;
  /** The catalog, when the caller already has it; otherwise it is read from state_5.sqlite. */
  threads?: Map<string, ThreadRow> | null;
}

const FIRST_LINE_CAP = 1024 * 1024;

const readFd = promisify(read);

/** The first line of a file (up to 1 MiB), without reading the rest; a FIFO is refused, never waited on. */
export async function readFirstLine(path: string): Promise<string | null> {
  const { fd } = await openRegularFile(path, path, { follow: true });
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total < FIRST_LINE_CAP) {
      const buffer = Buffer.alloc(Math.min(64 * 1024, FIRST_LINE_CAP - total));
      const { bytesRead } = await readFd(fd, buffer, 0, buffer.length, total);
      if (bytesRead === 0) break;
      const nl = buffer.subarray(0, bytesRead).indexOf(0x0a);
      chunks.push(buffer.subarray(0, nl === -1 ? bytesRead : nl));
      total += bytesRead;
      if (nl !== -1) return Buffer.concat(chunks).toString('utf8');
    }
    return total > 0 && total < FIRST_LINE_CAP ? Buffer.concat(chunks).toString('utf8') : null;
  } finally {
    await closeQuietly(fd);
  }
}

/** Reads the catalog from state_5.sqlite only (null when unreadable; the health report says why). */
export async function readCatalog(home: HomeInfo): Promise<Map<string, ThreadRow> | null> {
  const opened = await openCodexDb('state', join(home.sqliteHome, STATE_DB_FILE));
  if (!opened.ok) return null;
  try {
    return readThreadCatalog(opened.handle.db)?.rows ?? null;
  } catch {
    return null;
  } finally {
    opened.handle.close();
  }
}

async function metaEntry(file: SessionFile, threadId: string): Promise<SessionIndexEntry> {
  const entry: SessionIndexEntry = { threadId, path: file.path, archived: file.archived, cwd: null, startedAt: null, source: 'file-name' };
  try {
    const first = await readFirstLine(file.path);
    const line = first ? interpretLine(JSON.parse(first), 1) : null;
    if (line?.kind === 'meta') return { ...entry, cwd: line.meta.cwd, startedAt: line.meta.startedAt, source: 'session-meta' };
  } catch {
    // An unreadable or non-JSON first line leaves what the file name says; parseSessionRollout reports the details.
  }
  return entry;
}

function catalogEntry(file: SessionFile, threadId: string, row: ThreadRow): SessionIndexEntry {
  return { threadId, path: file.path, archived: file.archived, cwd: row.cwd, startedAt: unixTime(row.createdAt), source: 'state-db' };
}

/** Every rollout under sessions/ and archived_sessions/, keyed by the UUID in its name. */
export async function buildSessionIndex(home: HomeInfo, options: SessionIndexOptions = {}): Promise<SessionIndex> {
  const started = performance.now();
  const readMeta = options.readMeta ?? 'missing';
  const threads = options.threads === undefined ? await readCatalog(home) : options.threads;
  const listing = await listSessionFiles(home.codexHome, options.concurrency ?? 16);
  const entries = await mapLimit(listing.files, options.concurrency ?? 32, async (file): Promise<SessionIndexEntry | null> => {
    if (!file.threadId) return null;
    const row = threads?.get(file.threadId);
    if (row && readMeta !== 'all') return catalogEntry(file, file.threadId, row);
    if (readMeta === 'none')
      return { threadId: file.threadId, path: file.path, archived: file.archived, cwd: null, startedAt: null, source: 'file-name' };
    return metaEntry(file, file.threadId);
  });
  return {
    codexHome: home.codexHome,
    entries: entries.filter((e): e is SessionIndexEntry => e !== null),
    skipped: listing.skipped,
    elapsedMs: Math.round((performance.now() - started) * 10) / 10,
  };
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

export interface SessionLocation {
  path: string | null;
  via: 'state-db' | 'scan' | null;
  /** The catalog's rollout_path, even when no file is there any more. */
  dbRolloutPath: string | null;
}

/** Where a thread's rollout is: the catalog's rollout_path if that file exists, else a scan by file-name UUID. */
export async function locateSession(home: HomeInfo, threadId: string, threads?: Map<string, ThreadRow> | null): Promise<SessionLocation> {
  const id = canonicalThreadId(threadId) ?? threadId;
  const catalog = threads === undefined ? await readCatalog(home) : threads;
  const dbRolloutPath = catalog?.get(id)?.rolloutPath ?? catalog?.get(threadId)?.rolloutPath ?? null;
  if (dbRolloutPath && (await isFile(dbRolloutPath))) return { path: dbRolloutPath, via: 'state-db', dbRolloutPath };
  const listing = await listSessionFiles(home.codexHome);
  const found = listing.files.find((f) => f.threadId === id);
  return found ? { path: found.path, via: 'scan', dbRolloutPath } : { path: null, via: null, dbRolloutPath };
}
