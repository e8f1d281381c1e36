// Opens Memory Studio's own DB (`<dataDir>/studio.sqlite`): one writer connection per process, migrated, durable.
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import { dataFolderFailure, StudioFailure } from '../platform/errors';
import { openSqlite } from '../platform/sqlite';
import { ensurePrivateDirSync, ensurePrivateFileSync } from '../platform/private-files';
import { type Migration, migrations } from './migrations';

export const STUDIO_DB_FILE = 'studio.sqlite';
export const STUDIO_DB_BUSY_TIMEOUT_MS = 5000;

/** The handle core uses: cached prepared statements, transactions, and a shared connection released by `close()`. */
export interface StudioDb {
  readonly path: string;
  /** The raw connection, for the rare query the helpers do not cover. */
  readonly raw: Database.Database;
  /** A prepared statement, prepared once per connection and reused. */
  stmt<P extends unknown[] = unknown[], R = unknown>(sql: string): Database.Statement<P, R>;
  /** Runs `fn` in one `BEGIN IMMEDIATE` transaction, so concurrent writers in other processes queue instead of failing late. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

interface Shared {
  db: Database.Database;
  statements: Map<string, Database.Statement>;
  refs: number;
}

// One writer connection per DB file per process: opening the same folder twice shares it.
const open = new Map<string, Shared>();

/** Opens (creating and migrating as needed) the Studio DB in `dataDir`; throws a StudioFailure that says what to do. */
export function openStudioDb(dataDir: string): StudioDb {
  const path = join(dataDir, STUDIO_DB_FILE);
  let shared = open.get(path);
  if (!shared) {
    shared = { db: connect(dataDir, path), statements: new Map(), refs: 0 };
    open.set(path, shared);
  }
  shared.refs++;
  return handle(path, shared);
}

function handle(path: string, shared: Shared): StudioDb {
  let closed = false;
  return {
    path,
    raw: shared.db,
    stmt<P extends unknown[] = unknown[], R = unknown>(sql: string) {
      if (closed) throw new StudioFailure('Internal', 'The Studio DB handle was used after close().');
      let statement = shared.statements.get(sql);
      if (!statement) shared.statements.set(sql, (statement = shared.db.prepare(sql)));
      return statement as unknown as Database.Statement<P, R>;
    },
    transaction<T>(fn: () => T): T {
      try {
        return shared.db.transaction(fn).immediate();
      } catch (error) {
        throw classifyStudioDbError(path, error);
      }
    },
    close() {
      if (closed) return;
      closed = true;
      if (--shared.refs === 0) {
        open.delete(path);
        shared.db.close();
      }
    },
  };
}

function connect(dataDir: string, path: string): Database.Database {
  let db: Database.Database | undefined;
  try {
    // Private from the start: the folder 0700, the DB file 0600 before SQLite opens it (its -wal and -shm take its mode).
    ensurePrivateDirSync(dataDir);
    ensurePrivateFileSync(path);
    db = openSqlite(path, { timeout: STUDIO_DB_BUSY_TIMEOUT_MS });
    db.pragma(`busy_timeout = ${STUDIO_DB_BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    // FULL: an applied proposal's history must survive a power cut, and this DB is small and rarely written.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // Deleted or replaced text is overwritten with zeros, not left in free pages: the DB holds nothing the rows don't.
    db.pragma('secure_delete = ON');
    migrate(db, path, migrations);
    return db;
  } catch (error) {
    db?.close();
    throw classifyStudioDbError(path, error);
  }
}

/** Applies every migration newer than the DB's version, each in its own immediate transaction; refuses a newer DB. */
export function migrate(db: Database.Database, path: string, list: readonly Migration[]): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
  const known = list.reduce((max, m) => Math.max(max, m.version), 0);
  const current = () => (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
  const found = current();
  if (found > known) throw newerSchema(path, found, known);
  for (const migration of [...list].sort((x, y) => x.version - y.version)) {
    // Skipped without a write lock when already applied, so opening an up-to-date DB never waits on a writer.
    if (found >= migration.version) continue;
    const keys = migration.rebuildsReferencedTable ? (db.pragma('foreign_keys', { simple: true }) as number) : 0;
    let applied = false;
    // Only outside a transaction does this pragma take effect; it is put back whatever happens.
    if (keys) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        // Re-checked inside the lock: another process may have applied it since we looked.
        if (current() >= migration.version) return;
        db.exec(migration.sql);
        migration.run?.(db);
        if (migration.rebuildsReferencedTable) checkForeignKeys(db, migration);
        applied = true;
        db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
          migration.version,
          migration.name,
          Date.now(),
        );
      }).immediate();
    } finally {
      if (keys) db.pragma('foreign_keys = ON');
    }
    if (applied && migration.purges) purgeFreedPages(db);
  }
}

/**
 * After text was removed: VACUUM rewrites every page (free pages and the slack of rewritten ones included), and a
 * TRUNCATE checkpoint copies the WAL into the file and empties it, so the removed bytes are on no page and in no WAL
 * frame. A reader in another process can keep the checkpoint from finishing; SQLite then finishes it when the last
 * connection closes, and the connection's `secure_delete` has zeroed what the migration freed meanwhile.
 */
export function purgeFreedPages(db: Database.Database): void {
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
}

/** A rebuilt table must leave every reference whole, or the migration rolls back. */
function checkForeignKeys(db: Database.Database, migration: Migration): void {
  const broken = db.pragma('foreign_key_check') as unknown[];
  if (broken.length > 0)
    throw new Error(
      `migration ${migration.version} (${migration.name}) would leave ${broken.length} broken reference(s); it was rolled back`,
    );
}

function newerSchema(path: string, found: number, known: number): StudioFailure {
  return new StudioFailure(
    'Unsupported',
    `The Studio DB ${path} was written by a newer Memory Studio (schema version ${found}; this one knows up to ${known}).`,
    {
      path,
      hint: 'Update Memory Studio, or point it at another data folder with --data-dir. The file was not changed.',
    },
  );
}

/** Turns SQLite's failures on the Studio DB into messages that say which file and what to do. */
export function classifyStudioDbError(path: string, error: unknown): unknown {
  if (error instanceof StudioFailure) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  const detail = error instanceof Error ? error.message : String(error);
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StudioFailure('Busy', `The Studio DB ${path} is locked by another process (waited ${STUDIO_DB_BUSY_TIMEOUT_MS / 1000} s).`, {
      path,
      cause: error,
      hint: 'Another Memory Studio window or CLI command is writing; try again when it finishes.',
    });
  }
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new StudioFailure('Internal', `The Studio DB ${path} is damaged (${detail}).`, {
      path,
      cause: error,
      hint: 'Quit Memory Studio, move studio.sqlite (and any studio.sqlite-wal / -shm) aside to keep it, and start again: a new DB is created. Your memory files are not affected.',
    });
  }
  // A full disk (SQLite's "database or disk is full", or a "disk I/O error" with no space left), a read-only or
  // unwritable folder: said with the file and what to do, never as a bug.
  return dataFolderFailure(error, path, "Memory Studio's Studio DB") ?? error;
}
