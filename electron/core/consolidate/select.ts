// Codex's `get_phase2_input_selection`: which stage-1 rows a consolidation reads, from Codex's DBs opened read-only.
import type Database from 'better-sqlite3';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { DbProblem } from '../../../shared/health';
import { GLOBAL_JOB_KEY, JOB_KINDS } from '../codex/constants';
import { classifyDbError, openCodexStores, type CodexStores, type VersionStore } from '../codex-db';
import { tableColumns, tableView, type TableView } from '../codex-db/schema';
import { intOrNull, stringOrNull } from '../codex-db/time';
import type { Phase2Row, Phase2Selection } from './types';

const DAY_SECONDS = 86_400;
const TEXT_BATCH = 400;

interface ThreadInfo {
  memoryMode: string;
  rolloutPath: string | null;
  cwd: string | null;
  gitBranch: string | null;
}

/** A candidate before the limit: the ranking columns only (the texts are read for the winners). */
interface Candidate {
  threadId: string;
  sourceUpdatedAt: number;
  usageCount: number | null;
  lastUsage: number | null;
}

function emptySelection(
  home: HomeInfo,
  version: MemoryVersion,
  notes: string[],
  blocked = false,
  blockedBy: DbProblem | null = null,
): Phase2Selection {
  const m = home.config.memories;
  return {
    version,
    rows: [],
    eligible: 0,
    excludedNotEnabled: 0,
    limit: m.maxRawMemoriesForConsolidation,
    maxUnusedDays: m.maxUnusedDays,
    newWatermark: 0,
    notes,
    blocked: blocked ? notes.join(' ') : null,
    blockedBy: blocked ? blockedBy : null,
  };
}

const problemNote = (p: DbProblem): string => `${p.message} ${p.hint ?? ''}`.trim();

/** `threads` rows by id (memory mode, rollout path, cwd, branch); null when the catalog has no usable table. */
function readThreads(db: Database.Database): Map<string, ThreadInfo> | null {
  const columns = tableColumns(db, 'threads');
  if (!columns?.has('id')) return null;
  const view = tableView('threads', columns, ['id', 'memory_mode', 'rollout_path', 'cwd', 'git_branch']);
  const rows = new Map<string, ThreadInfo>();
  for (const raw of db.prepare(view.sql).iterate() as Iterable<Record<string, unknown>>) {
    const id = stringOrNull(raw.id);
    // A catalog older than the memory_mode migration: every thread has the column's default, 'enabled'.
    if (id)
      rows.set(id, {
        memoryMode: columns.has('memory_mode') ? (stringOrNull(raw.memory_mode) ?? '') : 'enabled',
        rolloutPath: stringOrNull(raw.rollout_path),
        cwd: stringOrNull(raw.cwd),
        gitBranch: stringOrNull(raw.git_branch),
      });
  }
  return rows;
}

/** Rows passing Codex's blank and usage/age filters (SQLite's trim() strips spaces only, exactly as Codex's query). */
function readCandidates(db: Database.Database, outputs: TableView, cutoff: number): Candidate[] {
  const rows = db
    .prepare(
      `SELECT thread_id, source_updated_at, usage_count, last_usage FROM (${outputs.sql})
      WHERE (length(trim(raw_memory)) > 0 OR length(trim(rollout_summary)) > 0)
        AND ((last_usage IS NOT NULL AND last_usage >= ?) OR (last_usage IS NULL AND source_updated_at >= ?))`,
    )
    .all(cutoff, cutoff) as Array<Record<string, unknown>>;
  return rows.map((r) => ({
    threadId: String(r.thread_id),
    sourceUpdatedAt: intOrNull(r.source_updated_at) ?? 0,
    usageCount: intOrNull(r.usage_count),
    lastUsage: intOrNull(r.last_usage),
  }));
}

const desc = (a: number, b: number): number => b - a;

/** usage_count DESC (NULL as 0), COALESCE(last_usage, source_updated_at) DESC, source_updated_at DESC, thread_id DESC. */
export function comparePhase2Rank(a: Candidate, b: Candidate): number {
  return (
    desc(a.usageCount ?? 0, b.usageCount ?? 0) ||
    desc(a.lastUsage ?? a.sourceUpdatedAt, b.lastUsage ?? b.sourceUpdatedAt) ||
    desc(a.sourceUpdatedAt, b.sourceUpdatedAt) ||
    (a.threadId < b.threadId ? 1 : a.threadId > b.threadId ? -1 : 0)
  );
}

/** The full rows of the winners, read in batches so a huge selection does not build one giant statement. */
function readFullRows(db: Database.Database, outputs: TableView, ids: string[], threads: Map<string, ThreadInfo>): Phase2Row[] {
  const rows: Phase2Row[] = [];
  for (let i = 0; i < ids.length; i += TEXT_BATCH) {
    const batch = ids.slice(i, i + TEXT_BATCH);
    const raw = db.prepare(`SELECT * FROM (${outputs.sql}) WHERE thread_id IN (${batch.map(() => '?').join(', ')})`).all(...batch) as Array<
      Record<string, unknown>
    >;
    for (const r of raw) {
      const threadId = String(r.thread_id);
      const thread = threads.get(threadId);
      rows.push({
        threadId,
        sourceUpdatedAt: intOrNull(r.source_updated_at) ?? 0,
        rawMemory: typeof r.raw_memory === 'string' ? r.raw_memory : '',
        rolloutSummary: typeof r.rollout_summary === 'string' ? r.rollout_summary : '',
        rolloutSlug: stringOrNull(r.rollout_slug),
        usageCount: intOrNull(r.usage_count),
        lastUsage: intOrNull(r.last_usage),
        selectedForPhase2: (intOrNull(r.selected_for_phase2) ?? 0) !== 0,
        selectedForPhase2SourceUpdatedAt: intOrNull(r.selected_for_phase2_source_updated_at),
        rolloutPath: thread?.rolloutPath ?? null,
        cwd: thread?.cwd ?? null,
        gitBranch: thread?.gitBranch ?? null,
      });
    }
  }
  return rows.sort((a, b) => (a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0));
}

/** The global job's `input_watermark` (Codex's claimed watermark), 0 when there is no row. */
function claimedWatermark(store: VersionStore): number {
  if (!store.handle || !store.jobs) return 0;
  const row = store.handle.db
    .prepare(`SELECT input_watermark FROM (${store.jobs.sql}) WHERE kind = ? AND job_key = ?`)
    .get(JOB_KINDS.global, GLOBAL_JOB_KEY) as { input_watermark: unknown } | undefined;
  return intOrNull(row?.input_watermark) ?? 0;
}

/** Notes for the DBs this version's selection depends on; null when both can be read. */
function unreadable(stores: CodexStores, store: VersionStore, version: MemoryVersion): string[] | null {
  const notes: string[] = [];
  const own = stores.problems.filter((p) => p.db === 'state' || p.db === store.dbName);
  if (!store.handle || !store.outputs) {
    const why = own.filter((p) => p.db === store.dbName).map(problemNote);
    notes.push(
      ...(why.length > 0
        ? why
        : [
            `The ${version} memory DB (${store.read.path}) has no stage-1 outputs yet: Codex has not extracted any ${version} memories, so there is nothing to consolidate.`,
          ]),
    );
    notes.push(`The selection is empty; a run would only re-check the current files.`);
    return notes;
  }
  if (!stores.state.handle) {
    notes.push(...own.filter((p) => p.db === 'state').map(problemNote));
    notes.push(
      `Without the thread catalog no thread counts as enabled (Codex joins it too), so the selection is empty. Fix or wait for ${stores.state.read.path} and preview again.`,
    );
    return notes;
  }
  return null;
}

function select(home: HomeInfo, version: MemoryVersion, nowSec: number, stores: CodexStores): Phase2Selection {
  const store = stores.versions.find((v) => v.version === version) as VersionStore;
  const blocked = unreadable(stores, store, version);
  if (blocked) {
    const own = stores.problems.find((p) => p.db === store.dbName) ?? stores.problems.find((p) => p.db === 'state');
    return emptySelection(home, version, blocked, true, own ?? null);
  }
  const threads = readThreads((stores.state.handle as NonNullable<CodexStores['state']['handle']>).db);
  if (!threads)
    return emptySelection(
      home,
      version,
      [`${stores.state.read.path} has no threads table, so no thread counts as enabled and the selection is empty.`],
      true,
    );
  const { maxRawMemoriesForConsolidation: limit, maxUnusedDays } = home.config.memories;
  const db = (store.handle as NonNullable<VersionStore['handle']>).db;
  const outputs = store.outputs as TableView;
  const candidates = readCandidates(db, outputs, nowSec - Math.max(0, maxUnusedDays) * DAY_SECONDS);
  const enabled = candidates.filter((c) => threads.get(c.threadId)?.memoryMode === 'enabled');
  const winners = enabled.sort(comparePhase2Rank).slice(0, Math.max(0, limit));
  const rows = readFullRows(
    db,
    outputs,
    winners.map((w) => w.threadId),
    threads,
  );
  const newest = rows.reduce((max, r) => Math.max(max, r.sourceUpdatedAt), 0);
  const notes =
    outputs.missing.length > 0
      ? [`${store.handle?.read.path ?? ''} lacks the columns ${outputs.missing.join(', ')} (an older Codex); they read as empty.`]
      : [];
  return {
    ...emptySelection(home, version, notes),
    rows,
    eligible: enabled.length,
    excludedNotEnabled: candidates.length - enabled.length,
    newWatermark: Math.max(claimedWatermark(store), newest),
  };
}

/**
 * Codex's Phase 2 input selection for `version` at `nowSec`. Every DB is opened read-only; a missing, locked or
 * damaged DB gives an empty selection whose notes say what happened and what to do.
 */
export async function selectPhase2Inputs(home: HomeInfo, version: MemoryVersion, nowSec: number): Promise<Phase2Selection> {
  const stores = await openCodexStores(home);
  try {
    return select(home, version, nowSec, stores);
  } catch (error) {
    const store = stores.versions.find((v) => v.version === version);
    return emptySelection(
      home,
      version,
      [
        `Reading the ${version} stage-1 outputs failed (${(error as Error).message}); the selection is empty. Try again; if it persists, check the DB with the health page.`,
      ],
      true,
      store ? classifyDbError(store.dbName, store.read.path, error) : null,
    );
  } finally {
    stores.close();
  }
}
