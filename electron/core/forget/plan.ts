// "Forget this session": reads Codex's DBs (read only) and lists, in readable words, the DB changes Codex's own forget makes.
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { DbChangeInput } from '../../../shared/review';
import { MEMORY_DB_FILES, STATE_DB_FILE } from '../codex/constants';
import { openCodexDb } from '../codex-db';
import { codexDbFailure, dbProblemFailure } from '../codex-db/db-failure';
import { intOrNull, stringOrNull } from '../codex-db/time';
import { StudioFailure } from '../platform/errors';
import { memoryDbName } from '../codex/constants';
import { FORGET_KINDS } from './kinds';

export interface ForgetThread {
  id: string;
  cwd: string;
  memoryMode: string;
}

/** What one version's memory DB holds for the thread. */
export interface ForgetVersionRow {
  version: MemoryVersion;
  rolloutSlug: string | null;
  sourceUpdatedAt: number | null;
  selectedForPhase2: boolean;
  hasJob: boolean;
}

export interface ForgetPlan {
  thread: ForgetThread;
  versions: ForgetVersionRow[];
  changes: DbChangeInput[];
  title: string;
}

/** The same short form the renderer shows (first 8 and last 4 characters of the UUID). */
export function shortThreadId(id: string): string {
  return id.length > 13 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}

export function memoryDbPath(home: HomeInfo, version: MemoryVersion): string {
  return home.roots.find((r) => r.version === version)?.dbPath ?? join(home.sqliteHome, MEMORY_DB_FILES[version]);
}

export function stateDbPath(home: HomeInfo): string {
  return join(home.sqliteHome, STATE_DB_FILE);
}

type Db = Database.Database;

/** Runs `read` on the state DB opened once (read only): NotFound/Busy when it cannot be opened. */
async function withStateDb<T>(home: HomeInfo, what: string, read: (db: Db) => T): Promise<T> {
  const opened = await openCodexDb('state', stateDbPath(home));
  if (!opened.ok) throw dbProblemFailure(opened.problem, `Cannot look up ${what}`);
  try {
    return read(opened.handle.db);
  } finally {
    opened.handle.close();
  }
}

function threadRow(home: HomeInfo, db: Db, threadId: string): ForgetThread {
  try {
    const row = db.prepare('SELECT id, cwd, memory_mode FROM threads WHERE id = ?').get(threadId) as Record<string, unknown> | undefined;
    if (!row) {
      throw new StudioFailure('NotFound', `Codex knows no session ${threadId} in ${home.codexHome}, so there is nothing to forget.`, {
        hint: 'Pick the session from the rollout table or a citation; its id is the UUID at the end of the rollout file name.',
      });
    }
    return { id: String(row.id), cwd: stringOrNull(row.cwd) ?? '', memoryMode: stringOrNull(row.memory_mode) ?? 'enabled' };
  } catch (error) {
    throw codexDbFailure('state', stateDbPath(home), error, `Memory Studio cannot look up session ${threadId}`, 'Nothing was changed.');
  }
}

/** Runs `read` on one version's memory DB opened once; null when that DB does not exist or has no stage-1 table. */
async function withMemoryDb<T>(home: HomeInfo, version: MemoryVersion, read: (db: Db, hasJobs: boolean) => T): Promise<T | null> {
  const opened = await openCodexDb(memoryDbName(version), memoryDbPath(home, version));
  if (!opened.ok) {
    if (opened.problem.kind === 'missing') return null;
    throw dbProblemFailure(opened.problem);
  }
  try {
    const db = opened.handle.db;
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name),
    );
    return tables.has('stage1_outputs') ? read(db, tables.has('jobs')) : null;
  } catch (error) {
    throw codexDbFailure(
      opened.handle.read.db,
      opened.handle.read.path,
      error,
      `Memory Studio cannot read the ${version} memory DB`,
      'Nothing was changed.',
    );
  } finally {
    opened.handle.close();
  }
}

/** The thread's stage-1 row in one version's memory DB, or null when the row does not exist. */
function versionRow(db: Db, hasJobs: boolean, version: MemoryVersion, threadId: string): ForgetVersionRow | null {
  const row = db
    .prepare('SELECT rollout_slug, source_updated_at, selected_for_phase2 FROM stage1_outputs WHERE thread_id = ?')
    .get(threadId) as Record<string, unknown> | undefined;
  if (!row) return null;
  const job = hasJobs
    ? db.prepare('SELECT 1 FROM jobs WHERE kind = ? AND job_key = ?').get(FORGET_KINDS.stage1JobKind, threadId)
    : undefined;
  return {
    version,
    rolloutSlug: stringOrNull(row.rollout_slug),
    sourceUpdatedAt: intOrNull(row.source_updated_at),
    selectedForPhase2: (intOrNull(row.selected_for_phase2) ?? 0) !== 0,
    hasJob: job !== undefined,
  };
}

function describeRow(row: ForgetVersionRow, short: string): string {
  const slug = row.rolloutSlug ? ` ("${row.rolloutSlug}")` : '';
  const when =
    row.sourceUpdatedAt === null
      ? ''
      : `, from the rollout as of ${new Date(row.sourceUpdatedAt * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `Delete the ${row.version} memory Codex extracted from session ${short}${slug}${when}.`;
}

/** The rows the person confirms, in the order they are applied: memory DBs first, then the thread catalog. */
function changesFor(thread: ForgetThread, rows: readonly ForgetVersionRow[]): DbChangeInput[] {
  const short = shortThreadId(thread.id);
  const changes: DbChangeInput[] = [];
  for (const row of rows) {
    const db = memoryDbName(row.version);
    const params = { threadId: thread.id };
    changes.push({ db, sqlKind: FORGET_KINDS.deleteStage1, description: describeRow(row, short), params });
    if (row.hasJob)
      changes.push({
        db,
        sqlKind: FORGET_KINDS.deleteStage1Job,
        description: `Delete its ${row.version} extraction job, so Codex keeps no trace of having read the session.`,
        params,
      });
    if (row.selectedForPhase2) {
      changes.push({
        db,
        sqlKind: FORGET_KINDS.enqueueConsolidation,
        description: `Ask Codex to consolidate ${row.version} memories again: this session was part of the last consolidation, so its content is still in the memory files until then.`,
        params,
      });
    }
  }
  if (thread.memoryMode === 'enabled') {
    changes.push({
      db: 'state',
      sqlKind: FORGET_KINDS.disableThread,
      description: `Turn memory off for session ${short} (memory_mode "enabled" → "disabled"), so Codex never extracts it again.`,
      params: { threadId: thread.id, from: thread.memoryMode },
    });
  }
  return changes;
}

/** Reads everything Codex knows about the thread and lists the changes; NotFound for an unknown thread, Invalid when nothing is left to forget. */
export async function planForget(home: HomeInfo, threadId: string): Promise<ForgetPlan> {
  const { plans, skipped } = await planForgetMany(home, [threadId]);
  const plan = plans[0];
  if (plan) return plan;
  throw skipped[0]?.error ?? new StudioFailure('Internal', `Session ${threadId} could not be planned.`);
}

/**
 * The same for many sessions, each DB opened once (a doctor fix forgets hundreds of repeated raw memories): a session
 * Codex does not know, or one already forgotten, is skipped with its reason instead of refusing the rest.
 */
export async function planForgetMany(
  home: HomeInfo,
  threadIds: readonly string[],
): Promise<{ plans: ForgetPlan[]; skipped: { threadId: string; error: StudioFailure }[] }> {
  const ids = [...new Set(threadIds)];
  const skipped: { threadId: string; error: StudioFailure }[] = [];
  const threads = await withStateDb(home, ids.length === 1 ? `session ${ids[0]}` : `${ids.length} sessions`, (db) =>
    ids.flatMap((id) => {
      try {
        return [threadRow(home, db, id)];
      } catch (error) {
        if (!(error instanceof StudioFailure) || error.kind !== 'NotFound') throw error;
        skipped.push({ threadId: id, error });
        return [];
      }
    }),
  );
  const rows = new Map<string, ForgetVersionRow[]>(threads.map((t) => [t.id, []]));
  for (const version of ['v1', 'v2'] as const) {
    await withMemoryDb(home, version, (db, hasJobs) => {
      for (const thread of threads) {
        const row = versionRow(db, hasJobs, version, thread.id);
        if (row) rows.get(thread.id)?.push(row);
      }
    });
  }
  const plans: ForgetPlan[] = [];
  for (const thread of threads) {
    const versions = rows.get(thread.id) ?? [];
    const changes = changesFor(thread, versions);
    if (changes.length === 0) {
      skipped.push({
        threadId: thread.id,
        error: new StudioFailure(
          'Invalid',
          `Session ${shortThreadId(thread.id)} is already forgotten: it has no extracted memory and its memory mode is "${thread.memoryMode}".`,
        ),
      });
      continue;
    }
    plans.push({ thread, versions, changes, title: `Forget session ${shortThreadId(thread.id)} (${thread.cwd || 'unknown folder'})` });
  }
  return { plans, skipped };
}
