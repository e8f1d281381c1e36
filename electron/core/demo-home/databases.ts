// Writes `state_5.sqlite` (thread catalog) and the memory DBs (`memories_1.sqlite`, `memories_v2_1.sqlite`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type Database from 'better-sqlite3';
import { capturedDatabase, createCodexSchema } from '../codex-schema';
import { openSqlite } from '../platform/sqlite';
import { fill } from './catalog';
import { CLI_VERSION, HISTORY_MODE } from './sessions';
import { threadTitle } from './plan';
import type { CitationPlan, ThreadPlan } from './types';

/**
 * Codex's memory tables (`stage1_outputs`, `jobs` and their indexes, migration 1) from the captured schema, for tests
 * that build older layouts (the tables inside `state_5.sqlite`, as earlier builds kept them).
 */
export const MEMORY_MIGRATION_SQL = capturedDatabase('memories_1.sqlite')
  .objects.filter((o) => o.tableName === 'stage1_outputs' || o.tableName === 'jobs')
  .map((o) => `${o.sql};`)
  .join('\n\n');

/** A new database with Codex's schema and migration records, as the reference Codex would have created it. */
function openFresh(file: string, installedAtSec: number): Database.Database {
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
  const db = openSqlite(file);
  createCodexSchema(db, path.basename(file), installedAtSec);
  return db;
}

/** The databases every start of the reference Codex creates besides state and memory: empty, with their schema. */
export const OTHER_CODEX_DBS = ['logs_2.sqlite', 'goals_1.sqlite', 'queue_1.sqlite', 'thread_history_1.sqlite'] as const;

export function writeEmptyCodexDb(file: string, installedAtSec: number): void {
  openFresh(file, installedAtSec).close();
}

/** Write `state_5.sqlite` with every planned thread. */
export function writeStateDb(file: string, threads: readonly ThreadPlan[], nowSec: number, installedAtSec: number): void {
  const db = openFresh(file, installedAtSec);
  try {
    const insert = db.prepare(`INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title,
      sandbox_policy, approval_mode, tokens_used, has_user_event, archived, archived_at, git_sha, git_branch, git_origin_url,
      cli_version, first_user_message, memory_mode, model, reasoning_effort, created_at_ms, updated_at_ms, thread_source,
      preview, recency_at, recency_at_ms, history_mode, originator)
      VALUES (?, ?, ?, ?, 'cli', 'openai', ?, ?, 'workspace-write', 'on-request', ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, 'gpt-5.4', 'medium',
      ?, ?, 'user', ?, ?, ?, '${HISTORY_MODE}', 'codex_cli_rs')`);
    db.transaction(() => {
      for (const t of threads) {
        const ask = fill(t.task.ask, t.ticket);
        const archivedAt = t.archived ? Math.min(Math.floor(t.updatedMs / 1000) + 86_400, nowSec - 3600) : null;
        insert.run(
          t.id,
          t.rolloutPath,
          Math.floor(t.createdMs / 1000),
          Math.floor(t.updatedMs / 1000),
          t.project.cwd,
          threadTitle(t),
          t.tokensUsed,
          t.archived ? 1 : 0,
          archivedAt,
          t.gitSha,
          t.gitBranch,
          t.project.origin,
          CLI_VERSION,
          ask,
          t.memoryMode,
          t.createdMs,
          t.updatedMs,
          ask,
          Math.floor(t.updatedMs / 1000),
          t.updatedMs,
        );
      }
    })();
  } finally {
    db.close();
  }
}

export interface MemoryDbRow {
  thread: ThreadPlan;
  rawMemory: string;
  rolloutSummary: string;
}

export interface MemoryDbInput {
  rows: readonly MemoryDbRow[];
  threads: readonly ThreadPlan[];
  citations: readonly CitationPlan[];
  /** Stable per-DB identifiers (ownership tokens, worker ids) drawn by the caller. */
  tokens: () => string;
  nowSec: number;
}

/** How often each thread's memory was cited, and when last: `stage1_outputs.usage_count` / `last_usage`. */
function usageByThread(citations: readonly CitationPlan[]): Map<string, { count: number; last: number }> {
  const usage = new Map<string, { count: number; last: number }>();
  for (const c of citations) {
    for (const id of new Set(c.threadIds)) {
      const u = usage.get(id) ?? { count: 0, last: 0 };
      usage.set(id, { count: u.count + 1, last: Math.max(u.last, c.at) });
    }
  }
  return usage;
}

/** The worker is the root session that was active when the job ran: the newest other thread started before it. */
function workerPicker(threads: readonly ThreadPlan[]): (sec: number, exclude?: string) => string {
  const workers = threads.filter((t) => t.memoryMode === 'enabled');
  return (sec, exclude) => {
    let best = workers[0]?.id ?? 'unknown';
    for (const w of workers) if (w.id !== exclude && Math.floor(w.createdMs / 1000) <= sec) best = w.id;
    return best;
  };
}

/** Write one memory DB (`memories_1.sqlite` or `memories_v2_1.sqlite`) with Codex's migration 1 schema. */
export function writeMemoryDb(file: string, input: MemoryDbInput): void {
  const firstGenerated = input.rows.reduce((m, r) => Math.min(m, r.thread.generatedAt), input.nowSec);
  const db = openFresh(file, firstGenerated - 60);
  try {
    db.transaction(() => fillMemoryDb(db, input))();
  } finally {
    db.close();
  }
}

/** Phase 1 outputs and their jobs (done and failed), then the phase 2 job that consolidated them. */
function fillMemoryDb(db: Database.Database, input: MemoryDbInput): void {
  const usage = usageByThread(input.citations);
  const insertOutput = db.prepare(`INSERT INTO stage1_outputs (thread_id, source_updated_at, raw_memory, rollout_summary, rollout_slug,
    generated_at, usage_count, last_usage, selected_for_phase2, selected_for_phase2_source_updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`);
  const insertJob = db.prepare(`INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token, started_at, finished_at, lease_until,
    retry_at, retry_remaining, last_error, input_watermark, last_success_watermark) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)`);
  const workerFor = workerPicker(input.threads);
  let watermark = 0;
  let lastGenerated = 0;
  for (const r of input.rows) {
    const t = r.thread;
    const u = usage.get(t.id);
    insertOutput.run(
      t.id,
      t.sourceUpdatedAt,
      r.rawMemory,
      r.rolloutSummary,
      t.task.slug,
      t.generatedAt,
      u ? u.count : null,
      u ? u.last : null,
      t.sourceUpdatedAt,
    );
    insertJob.run(
      'memory_stage1',
      t.id,
      'done',
      workerFor(t.generatedAt, t.id),
      input.tokens(),
      t.generatedAt - 41,
      t.generatedAt,
      null,
      3,
      null,
      t.sourceUpdatedAt,
      t.sourceUpdatedAt,
    );
    watermark = Math.max(watermark, t.sourceUpdatedAt);
    lastGenerated = Math.max(lastGenerated, t.generatedAt);
  }
  for (const t of input.threads) {
    if (!t.failure) continue;
    const f = t.failure;
    insertJob.run(
      'memory_stage1',
      t.id,
      'error',
      workerFor(f.finishedAt, t.id),
      input.tokens(),
      f.finishedAt - 95,
      f.finishedAt,
      f.finishedAt + 3600,
      f.retryRemaining,
      f.error,
      t.sourceUpdatedAt,
      null,
    );
  }
  const finished = Math.min(lastGenerated + 420, input.nowSec - 600);
  insertJob.run(
    'memory_consolidate_global',
    'global',
    'done',
    workerFor(finished),
    input.tokens(),
    finished - 233,
    finished,
    null,
    3,
    null,
    watermark,
    watermark,
  );
  // A successful phase 2 raises the progress counter to the threads it consolidated.
  db.prepare('UPDATE consolidation_progress SET max_thread_count = ? WHERE singleton = 1').run(input.rows.length);
}
