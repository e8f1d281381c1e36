// One read of Codex's thread catalog and of one version's memory tables: every row the coverage ledger judges.
import type Database from 'better-sqlite3';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { DbProblem, GlobalJob } from '../../../shared/health';
import { JOB_KINDS } from '../codex/constants';
import { readGlobalJob } from '../codex-db/jobs';
import { classifyDbError, type OpenOptions } from '../codex-db/open-db';
import { tableColumns, tableView } from '../codex-db/schema';
import { openCodexStores, type VersionStore } from '../codex-db/stores';
import type { ThreadRow } from '../codex-db/threads';
import { intOrNull, stringOrNull } from '../codex-db/time';

/** A thread as the ledger needs it: the catalog's row, its title, and whether it has a user message. */
export interface CoverageThreadRow extends ThreadRow {
  title: string | null;
  /** False when the catalog says the session has no user message (an empty `preview`); null when it cannot tell. */
  hasMessage: boolean | null;
}

/** One `stage1_outputs` row. */
export interface OutputRow {
  sourceUpdatedAt: number | null;
  generatedAt: number | null;
  rolloutSlug: string | null;
  selected: boolean;
  selectedSourceUpdatedAt: number | null;
  usageCount: number;
  lastUsage: number | null;
}

/** One `memory_stage1` job row. */
export interface JobRow {
  status: string;
  workerId: string | null;
  startedAt: number | null;
  finishedAt: number | null;
  leaseUntil: number | null;
  retryAt: number | null;
  retryRemaining: number | null;
  lastError: string | null;
  inputWatermark: number | null;
  lastSuccessWatermark: number | null;
}

export interface CoverageSnapshot {
  threads: CoverageThreadRow[];
  outputs: Map<string, OutputRow>;
  jobs: Map<string, JobRow>;
  global: GlobalJob | null;
  problems: DbProblem[];
}

const EXTRA_COLUMNS = ['id', 'title', 'preview'] as const;

/** Titles and previews, by thread id: a second look at the same opened catalog (snapshot or file). */
function readExtras(db: Database.Database): Map<string, { title: string | null; hasMessage: boolean | null }> {
  const columns = tableColumns(db, 'threads');
  const out = new Map<string, { title: string | null; hasMessage: boolean | null }>();
  if (!columns?.has('id')) return out;
  const hasPreview = columns.has('preview');
  const view = tableView('threads', columns, EXTRA_COLUMNS);
  for (const raw of db.prepare(view.sql).iterate() as Iterable<Record<(typeof EXTRA_COLUMNS)[number], unknown>>) {
    const id = stringOrNull(raw.id);
    if (!id) continue;
    const title = stringOrNull(raw.title);
    // Codex's claim lists only sessions with a preview (`threads.preview <> ''`, its first user message).
    out.set(id, { title: title === '' ? null : title, hasMessage: hasPreview ? stringOrNull(raw.preview) !== '' : null });
  }
  return out;
}

function readOutputs(db: Database.Database, store: VersionStore): Map<string, OutputRow> {
  const out = new Map<string, OutputRow>();
  if (!store.outputs) return out;
  const sql = `SELECT thread_id, source_updated_at, generated_at, rollout_slug, selected_for_phase2,
    selected_for_phase2_source_updated_at, usage_count, last_usage FROM (${store.outputs.sql})`;
  for (const r of db.prepare(sql).iterate() as Iterable<Record<string, unknown>>) {
    if (typeof r.thread_id !== 'string') continue;
    out.set(r.thread_id, {
      sourceUpdatedAt: intOrNull(r.source_updated_at),
      generatedAt: intOrNull(r.generated_at),
      rolloutSlug: stringOrNull(r.rollout_slug),
      selected: (intOrNull(r.selected_for_phase2) ?? 0) !== 0,
      selectedSourceUpdatedAt: intOrNull(r.selected_for_phase2_source_updated_at),
      usageCount: intOrNull(r.usage_count) ?? 0,
      lastUsage: intOrNull(r.last_usage),
    });
  }
  return out;
}

function readJobs(db: Database.Database, store: VersionStore): Map<string, JobRow> {
  const out = new Map<string, JobRow>();
  if (!store.jobs) return out;
  for (const r of db.prepare(`SELECT * FROM (${store.jobs.sql}) WHERE kind = ?`).iterate(JOB_KINDS.stage1) as Iterable<
    Record<string, unknown>
  >) {
    if (typeof r.job_key !== 'string') continue;
    out.set(r.job_key, {
      status: String(r.status),
      workerId: stringOrNull(r.worker_id),
      startedAt: intOrNull(r.started_at),
      finishedAt: intOrNull(r.finished_at),
      leaseUntil: intOrNull(r.lease_until),
      retryAt: intOrNull(r.retry_at),
      retryRemaining: intOrNull(r.retry_remaining),
      lastError: stringOrNull(r.last_error),
      inputWatermark: intOrNull(r.input_watermark),
      lastSuccessWatermark: intOrNull(r.last_success_watermark),
    });
  }
  return out;
}

/**
 * Everything the ledger judges, read once and read-only (a WAL file at rest is read as an in-memory snapshot). A missing,
 * locked or damaged DB, or one that fails part-way, is a problem in the snapshot, never a throw; what was read stays.
 */
export async function readCoverageSnapshot(
  home: HomeInfo,
  version: MemoryVersion,
  nowSec: number,
  options: OpenOptions = {},
): Promise<CoverageSnapshot> {
  const stores = await openCodexStores(home, options, [version]);
  const problems = stores.problems;
  const snapshot: CoverageSnapshot = { threads: [], outputs: new Map(), jobs: new Map(), global: null, problems };
  const attempt = (db: DbProblem['db'], path: string, read: () => void): void => {
    try {
      read();
    } catch (error) {
      const problem = classifyDbError(db, path, error);
      if (!problems.some((p) => p.path === problem.path && p.kind === problem.kind)) problems.push(problem);
    }
  };
  try {
    const state = stores.state.handle;
    const catalog = stores.catalog;
    if (state && catalog) {
      attempt('state', state.read.path, () => {
        const extras = readExtras(state.db);
        for (const row of catalog.rows.values()) {
          const extra = extras.get(row.id);
          snapshot.threads.push({ ...row, title: extra?.title ?? null, hasMessage: extra?.hasMessage ?? null });
        }
      });
    }
    const store = stores.versions[0];
    const handle = store?.handle;
    if (store && handle) {
      const db = store.tablesIn === 'state-db' ? 'state' : store.dbName;
      attempt(db, handle.read.path, () => {
        snapshot.outputs = readOutputs(handle.db, store);
        snapshot.jobs = readJobs(handle.db, store);
        snapshot.global = store.jobs ? readGlobalJob(handle.db, store.jobs, nowSec) : null;
      });
    }
    return snapshot;
  } finally {
    stores.close();
  }
}
