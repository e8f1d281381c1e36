// Opens the index DB in Memory Studio's data folder: created, checked, and rebuilt when damaged or of another format.
import { troubleAt } from '../platform/storage-faults';
import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDirSync, ensurePrivateFileSync } from '../platform/private-files';
import { openSqlite } from '../platform/sqlite';
import { analyzerFingerprint, type AnalyzerFingerprint } from './fingerprint';
import { INDEX_SCHEMA, INDEX_SCHEMA_VERSION } from './schema';

export const INDEX_DIR = 'index';
const BUSY_TIMEOUT_MS = 10_000;

/** The index of one Codex home: `<data>/index/<first 16 hex of sha256(home)>.sqlite`. */
export function indexPathFor(dataDir: string, codexHome: string): string {
  return join(dataDir, INDEX_DIR, `${createHash('sha256').update(codexHome).digest('hex').slice(0, 16)}.sqlite`);
}

export type IndexProblem = 'corrupt' | 'full' | 'unwritable';

/**
 * What kind of trouble an error from SQLite or the file system means for the index (the platform's classifier; with the
 * index's `path`, a "disk I/O error" on a disk with no space left counts as full), or null for anything else.
 */
export function classifyIndexError(error: unknown, path?: string): IndexProblem | null {
  switch (troubleAt(error, path)) {
    case 'corrupt':
      return 'corrupt';
    case 'full':
      return 'full';
    case 'read-only':
    case 'cannot-open':
    case 'io':
    case 'denied':
      return 'unwritable';
    default:
      return null;
  }
}

/** An index that cannot be used now; `message` says why and what the person can do. */
export class IndexUnavailable extends Error {
  constructor(
    readonly problem: IndexProblem,
    message: string,
  ) {
    super(message);
    this.name = 'IndexUnavailable';
  }
}

export function unavailableMessage(problem: IndexProblem, path: string, error: unknown): string {
  const detail = error instanceof Error ? error.message : String(error);
  if (problem === 'full')
    return `Memory Studio's index is off: the disk holding ${path} is full (${detail}). Everything still works by reading the files directly, only slower, and search is unavailable; free some space and it comes back on its own.`;
  return `Memory Studio's index is off: ${path} cannot be written (${detail}). Everything still works by reading the files directly, only slower, and search is unavailable; check that the data folder is writable.`;
}

export interface OpenOptions {
  /** SQLite's page limit for this connection: a real SQLITE_FULL at that size (tests of the full-disk path). */
  maxPages?: number;
  /** The folder of the analysis code the index is checked against (electron/core): tests name a copy of it. */
  analyzerCore?: string;
}

/** A connection with the index's pragmas; `check` false for workers, which trust the caller that created the file. */
export function connectIndex(path: string, options: OpenOptions = {}): Database.Database {
  ensurePrivateDirSync(join(path, '..'));
  ensurePrivateFileSync(path);
  const db = openSqlite(path, { timeout: BUSY_TIMEOUT_MS });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    // What a refresh replaces is zeroed, not left in free pages (the index keeps texts masked; this keeps old ones off the disk).
    db.pragma('secure_delete = ON');
    // A cache: a power cut may lose the last batches (they are rebuilt), never corrupt the file.
    db.pragma('synchronous = NORMAL');
    if (options.maxPages) db.pragma(`max_page_count = ${options.maxPages}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function removeDbFiles(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}

/**
 * The schema, both fingerprints and the format number in one transaction: a failure (a full disk) leaves no half-made
 * index. The content fingerprint is read here, once per build, so that a later rebuild of the app can keep the index.
 */
function create(db: Database.Database, analyzer: AnalyzerFingerprint): void {
  db.transaction(() => {
    db.exec(INDEX_SCHEMA);
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?), (?, ?)').run(
      'analyzer',
      analyzer.stat,
      'analyzer_content',
      analyzer.content(),
      'created_at',
      new Date().toISOString(),
    );
    db.pragma(`user_version = ${INDEX_SCHEMA_VERSION}`);
  })();
}

/**
 * Whether the index was built by this analysis code. The stat fingerprint answers on every open; only when it differs
 * (a rebuild or reinstall of the app gives the same files new mtimes) are the files' bytes read: the same bytes keep
 * the index and store the new stat fingerprint. An index from before the content fingerprint is rebuilt once then.
 */
function sameAnalyzer(db: Database.Database, analyzer: AnalyzerFingerprint): boolean {
  const stored = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
  if (stored.get('analyzer') === analyzer.stat) return true;
  const content = stored.get('analyzer_content');
  if (content === undefined || content !== analyzer.content()) return false;
  db.prepare("UPDATE meta SET value = ? WHERE key = 'analyzer'").run(analyzer.stat);
  return true;
}

/** Why an existing file cannot be used as it is (another format, other analysis code), or null when it can. */
function staleReason(db: Database.Database, path: string, analyzer: AnalyzerFingerprint): string | null {
  const version = Number(db.pragma('user_version', { simple: true }));
  const tables = Number(db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get());
  if (version === 0 && tables === 0) return '';
  if (version > INDEX_SCHEMA_VERSION)
    return `The index at ${path} was written by a newer Memory Studio (index format ${version}; this one reads ${INDEX_SCHEMA_VERSION}), so it was rebuilt for this version.`;
  if (version !== INDEX_SCHEMA_VERSION) return `The index at ${path} is in an older format (${version}); it was rebuilt.`;
  if (!sameAnalyzer(db, analyzer))
    return 'Memory Studio changed how it reads memory files since the index was built, so every file is indexed again.';
  return null;
}

export interface OpenedIndex {
  db: Database.Database;
  /** Said once to the person when the index had to be rebuilt (damaged, another format, new analysis code). */
  notice: string | null;
}

/**
 * Opens (creating it when missing) the index at `path`. A damaged file, one from another index format or one built
 * by other analysis code is deleted and made anew, with a notice that says so; only the index is lost, and it is
 * rebuilt from the files. Throws IndexUnavailable when the data folder cannot hold it (full, read-only).
 */
export function openIndex(path: string, options: OpenOptions = {}): OpenedIndex {
  const analyzer = analyzerFingerprint(options.analyzerCore);
  let notice: string | null = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    let db: Database.Database | null = null;
    try {
      db = connectIndex(path, options);
      const reason = staleReason(db, path, analyzer);
      if (reason === null) return { db, notice };
      if (reason !== '') {
        db.close();
        db = null;
        removeDbFiles(path);
        notice = reason;
        db = connectIndex(path, options);
      }
      create(db, analyzer);
      return { db, notice };
    } catch (error) {
      db?.close();
      const problem = classifyIndexError(error, path);
      if (problem === 'corrupt' && attempt === 0) {
        removeDbFiles(path);
        notice = `The index at ${path} was damaged (${(error as Error).message}); it was rebuilt from your memory files, which were never in danger.`;
        continue;
      }
      if (problem === 'full' || problem === 'unwritable') throw new IndexUnavailable(problem, unavailableMessage(problem, path, error));
      throw error;
    }
  }
  throw new IndexUnavailable('corrupt', `The index at ${path} stays damaged after a rebuild; Memory Studio works without it.`);
}
