// Applies a proposal's Codex-DB changes: one read-write connection and one IMMEDIATE transaction per DB, all or nothing.
import type Database from 'better-sqlite3';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { DbChange } from '../../../shared/review';
import { codexDbFailure } from '../codex-db/db-failure';
import { StudioFailure } from '../platform/errors';
import { storageTrouble } from '../platform/storage-faults';
import { openSqlite } from '../platform/sqlite';
import { versionOfDb } from '../codex/constants';
import { FORGET_KINDS, IMPORT_KINDS, isRepairChange } from './kinds';
import { memoryDbPath, stateDbPath } from './plan';
import { runRepair } from './repair';

/** How long a statement waits for Codex's own writer before the whole step gives up (nothing changed). */
export const DB_CHANGE_BUSY_TIMEOUT_MS = 5_000;

interface OpenDb {
  name: DbChange['db'];
  path: string;
  db: Database.Database;
  inTransaction: boolean;
}

function dbPathOf(home: HomeInfo, name: DbChange['db']): string {
  const version = versionOfDb(name);
  return version ? memoryDbPath(home, version) : stateDbPath(home);
}

function threadIdOf(change: DbChange): string {
  const id = (change.params as { threadId?: unknown } | null)?.threadId;
  if (typeof id !== 'string' || id === '' || id.length > 200)
    throw new StudioFailure('Invalid', `The DB change "${change.description}" names no valid session id.`);
  return id;
}

/** Runs one change on its DB's open transaction; adds the version to `pending` when Codex's enqueue would run. */
function runChange(target: OpenDb, change: DbChange, pending: Set<MemoryVersion>, recovering: boolean): void {
  const version = versionOfDb(change.db);
  if (change.sqlKind === IMPORT_KINDS.enqueueConsolidation) {
    // As for forget: we hold the row's lease now, and the engine's release leaves it `pending` as Codex's enqueue does.
    if (version) pending.add(version);
    return;
  }
  if (isRepairChange(change)) {
    // A compare-and-swap of one jobs row, like Codex's own claims: it needs no lease of ours and enqueues nothing.
    runRepair(target.db, change, recovering);
    return;
  }
  const threadId = threadIdOf(change);
  switch (change.sqlKind) {
    case FORGET_KINDS.deleteStage1: {
      // Checked again now: a row Codex selected since the proposal was made must still lead to a consolidation.
      const row = target.db.prepare('SELECT selected_for_phase2 FROM stage1_outputs WHERE thread_id = ?').get(threadId) as
        { selected_for_phase2: number } | undefined;
      target.db.prepare('DELETE FROM stage1_outputs WHERE thread_id = ?').run(threadId);
      if (row && row.selected_for_phase2 !== 0 && version) pending.add(version);
      return;
    }
    case FORGET_KINDS.deleteStage1Job:
      target.db.prepare('DELETE FROM jobs WHERE kind = ? AND job_key = ?').run(FORGET_KINDS.stage1JobKind, threadId);
      return;
    case FORGET_KINDS.enqueueConsolidation:
      // We hold the global row's lease right now: the engine's release sets it `pending` exactly as Codex's enqueue does.
      if (version) pending.add(version);
      return;
    case FORGET_KINDS.disableThread:
      // `polluted` (Codex's own exclusion) is kept: it already keeps the session out of memory.
      target.db.prepare("UPDATE threads SET memory_mode = 'disabled' WHERE id = ? AND memory_mode = 'enabled'").run(threadId);
      return;
    default:
      throw new StudioFailure(
        'Unsupported',
        `This Memory Studio does not know the DB change "${change.sqlKind}" (${change.description}); nothing was changed.`,
      );
  }
}

/** A locked, damaged or foreign DB in words with its file (`codexDbFailure`); after a rollback nothing was changed. */
function translate(error: unknown, target: OpenDb | undefined): StudioFailure {
  if (error instanceof StudioFailure) return error;
  if (!target)
    return new StudioFailure(
      'Internal',
      `Changing a Codex DB failed (${error instanceof Error ? error.message : String(error)}); no DB change was made.`,
      {
        cause: error,
      },
    );
  const waited =
    storageTrouble(error) === 'locked' ? ` It stayed locked by another writer (Codex?) for ${DB_CHANGE_BUSY_TIMEOUT_MS / 1000} s.` : '';
  return codexDbFailure(
    target.name,
    target.path,
    error,
    "Memory Studio cannot change Codex's DB",
    `${waited} No DB change was made.`.trim(),
  );
}

function rollbackAll(opened: readonly OpenDb[]): void {
  for (const t of opened) {
    if (!t.inTransaction) continue;
    try {
      t.db.exec('ROLLBACK');
    } catch {
      // SQLite already rolled back (e.g. after SQLITE_FULL); nothing else to undo.
    }
    t.inTransaction = false;
  }
}

/**
 * Synchronous on purpose: the engine calls it between the renames and the release, and nothing else of ours may
 * touch these DBs meanwhile (our lease heartbeat runs on the same thread). Every DB's transaction is opened and
 * every statement run before the first COMMIT, so any failure rolls every DB back. Returns the versions whose
 * global job must be left `pending`.
 */
export function commitDbChanges(home: HomeInfo, changes: readonly DbChange[]): MemoryVersion[] {
  return commitDbChangesAt(dbChangePaths(home, changes), changes);
}

/** The DB file each change names, resolved in `home` (Apply's journal keeps them, so recovery needs no home). */
export function dbChangePaths(home: HomeInfo, changes: readonly DbChange[]): Partial<Record<DbChange['db'], string>> {
  return Object.fromEntries([...new Set(changes.map((c) => c.db))].map((name) => [name, dbPathOf(home, name)]));
}

/** commitDbChanges on DB files already resolved (recovery finishing an interrupted Apply: the changes are idempotent). */
export function commitDbChangesAt(
  paths: Partial<Record<string, string>>,
  changes: readonly DbChange[],
  options: { recovering?: boolean } = {},
): MemoryVersion[] {
  const pending = new Set<MemoryVersion>();
  const opened: OpenDb[] = [];
  let current: OpenDb | undefined;
  try {
    for (const name of [...new Set(changes.map((c) => c.db))]) {
      const path = paths[name];
      if (!path)
        throw new StudioFailure('Invalid', `No file is known for the ${name} DB of the change "${changes[0]?.description ?? ''}".`);
      current = { name, path, db: openSqlite(path, { fileMustExist: true, timeout: DB_CHANGE_BUSY_TIMEOUT_MS }), inTransaction: false };
      opened.push(current);
      current.db.exec('BEGIN IMMEDIATE');
      current.inTransaction = true;
      for (const change of changes.filter((c) => c.db === name)) runChange(current, change, pending, options.recovering === true);
    }
    for (const t of opened) {
      current = t;
      t.db.exec('COMMIT');
      t.inTransaction = false;
    }
    return [...pending].sort();
  } catch (error) {
    rollbackAll(opened);
    throw translate(error, current);
  } finally {
    for (const t of opened) t.db.close();
  }
}

/**
 * The versions whose memory DB the changes touch: their roots are locked and their leases held while applying. A
 * repair (repair.ts) is a guarded swap of one jobs row, Codex's own protocol, so it takes no lease: reclaiming a stuck
 * consolidation job must not first claim that very job.
 */
/** Every version whose memory DB the changes touch, repairs included: their roots are locked while applying. */
export function lockedVersionsOfChanges(changes: readonly DbChange[]): MemoryVersion[] {
  return [...new Set(changes.map((c) => versionOfDb(c.db)).filter((v): v is MemoryVersion => v !== null))].sort();
}

export function versionsOfChanges(changes: readonly DbChange[]): MemoryVersion[] {
  const versions = changes.filter((c) => !isRepairChange(c)).map((c) => versionOfDb(c.db));
  return [...new Set(versions.filter((v): v is MemoryVersion => v !== null))].sort();
}
