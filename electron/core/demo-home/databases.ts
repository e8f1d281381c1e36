// Writes `state_5.sqlite` (thread catalog) and the memory DBs (`memories_1.sqlite`, `memories_v2_1.sqlite`).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import type Database from 'better-sqlite3';
import { openSqlite } from '../sqlite';
import { fill } from './catalog';
import { CLI_VERSION } from './sessions';
import { threadTitle } from './plan';
import type { CitationPlan, ThreadPlan } from './types';

/** Codex's memory migration `0001_memories.sql`, byte for byte as sqlx checksums it. */
export const MEMORY_MIGRATION_SQL = `CREATE TABLE stage1_outputs (
    thread_id TEXT PRIMARY KEY,
    source_updated_at INTEGER NOT NULL,
    raw_memory TEXT NOT NULL,
    rollout_summary TEXT NOT NULL,
    rollout_slug TEXT,
    generated_at INTEGER NOT NULL,
    usage_count INTEGER,
    last_usage INTEGER,
    selected_for_phase2 INTEGER NOT NULL DEFAULT 0,
    selected_for_phase2_source_updated_at INTEGER
);

CREATE INDEX idx_stage1_outputs_source_updated_at
    ON stage1_outputs(source_updated_at DESC, thread_id DESC);

CREATE TABLE jobs (
    kind TEXT NOT NULL,
    job_key TEXT NOT NULL,
    status TEXT NOT NULL,
    worker_id TEXT,
    ownership_token TEXT,
    started_at INTEGER,
    finished_at INTEGER,
    lease_until INTEGER,
    retry_at INTEGER,
    retry_remaining INTEGER NOT NULL,
    last_error TEXT,
    input_watermark INTEGER,
    last_success_watermark INTEGER,
    PRIMARY KEY (kind, job_key)
);

CREATE INDEX idx_jobs_kind_status_retry_lease
    ON jobs(kind, status, retry_at, lease_until);
`;

const SQLX_MIGRATIONS_SQL = `CREATE TABLE IF NOT EXISTS _sqlx_migrations (
    version BIGINT PRIMARY KEY,
    description TEXT NOT NULL,
    installed_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
    success BOOLEAN NOT NULL,
    checksum BLOB NOT NULL,
    execution_time BIGINT NOT NULL
);`;

/** The thread catalog as it looks after Codex's state migrations (flattened into one CREATE TABLE). */
const THREADS_SQL = `CREATE TABLE threads (
    id TEXT PRIMARY KEY,
    rollout_path TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    source TEXT NOT NULL,
    model_provider TEXT NOT NULL,
    cwd TEXT NOT NULL,
    title TEXT NOT NULL,
    sandbox_policy TEXT NOT NULL,
    approval_mode TEXT NOT NULL,
    tokens_used INTEGER NOT NULL DEFAULT 0,
    has_user_event INTEGER NOT NULL DEFAULT 0,
    archived INTEGER NOT NULL DEFAULT 0,
    archived_at INTEGER,
    git_sha TEXT,
    git_branch TEXT,
    git_origin_url TEXT,
    cli_version TEXT NOT NULL DEFAULT '',
    first_user_message TEXT NOT NULL DEFAULT '',
    agent_nickname TEXT,
    agent_role TEXT,
    memory_mode TEXT NOT NULL DEFAULT 'enabled',
    model TEXT,
    reasoning_effort TEXT,
    agent_path TEXT,
    created_at_ms INTEGER,
    updated_at_ms INTEGER,
    thread_source TEXT,
    preview TEXT NOT NULL DEFAULT '',
    recency_at INTEGER NOT NULL DEFAULT 0,
    recency_at_ms INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX idx_threads_created_at ON threads(created_at DESC, id DESC);
CREATE INDEX idx_threads_updated_at ON threads(updated_at DESC, id DESC);
CREATE INDEX idx_threads_archived ON threads(archived);
CREATE INDEX idx_threads_source ON threads(source);
CREATE INDEX idx_threads_provider ON threads(model_provider);
CREATE INDEX idx_threads_created_at_ms ON threads(created_at_ms DESC, id DESC);
CREATE INDEX idx_threads_updated_at_ms ON threads(updated_at_ms DESC, id DESC);
CREATE INDEX idx_threads_recency_at_ms ON threads(recency_at_ms DESC, id DESC);`;

function openFresh(file: string): Database.Database {
  fs.rmSync(file, { force: true });
  const db = openSqlite(file);
  db.pragma('journal_mode = DELETE');
  return db;
}

/** `installed_on` as SQLite's CURRENT_TIMESTAMP prints it. */
function sqliteTimestamp(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** Write `state_5.sqlite` with every planned thread. */
export function writeStateDb(file: string, threads: readonly ThreadPlan[], nowSec: number): void {
  const db = openFresh(file);
  try {
    db.exec(THREADS_SQL);
    const insert = db.prepare(`INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title,
      sandbox_policy, approval_mode, tokens_used, has_user_event, archived, archived_at, git_sha, git_branch, git_origin_url,
      cli_version, first_user_message, memory_mode, model, reasoning_effort, created_at_ms, updated_at_ms, thread_source,
      preview, recency_at, recency_at_ms)
      VALUES (?, ?, ?, ?, 'cli', 'openai', ?, ?, 'workspace-write', 'on-request', ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, 'gpt-5.4', 'medium',
      ?, ?, 'user', ?, ?, ?)`);
    db.transaction(() => {
      for (const t of threads) {
        const ask = fill(t.task.ask, t.ticket);
        const archivedAt = t.archived ? Math.min(Math.floor(t.updatedMs / 1000) + 86_400, nowSec - 3600) : null;
        insert.run(
          t.id, t.rolloutPath, Math.floor(t.createdMs / 1000), Math.floor(t.updatedMs / 1000), t.project.cwd, threadTitle(t),
          t.tokensUsed, t.archived ? 1 : 0, archivedAt, t.gitSha, t.gitBranch, t.project.origin, CLI_VERSION, ask, t.memoryMode,
          t.createdMs, t.updatedMs, ask, Math.floor(t.updatedMs / 1000), t.updatedMs,
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

/** Write one memory DB (`memories_1.sqlite` or `memories_v2_1.sqlite`) with Codex's migration 1 schema. */
export function writeMemoryDb(file: string, input: MemoryDbInput): void {
  const db = openFresh(file);
  try {
    db.exec(SQLX_MIGRATIONS_SQL);
    db.exec(MEMORY_MIGRATION_SQL);
    const checksum = createHash('sha384').update(MEMORY_MIGRATION_SQL).digest();
    const firstGenerated = input.rows.reduce((m, r) => Math.min(m, r.thread.generatedAt), input.nowSec);
    db.prepare('INSERT INTO _sqlx_migrations (version, description, installed_on, success, checksum, execution_time) VALUES (1, ?, ?, 1, ?, ?)').run(
      'memories',
      sqliteTimestamp(firstGenerated - 60),
      checksum,
      1_843_211,
    );

    const usage = new Map<string, { count: number; last: number }>();
    for (const c of input.citations) {
      for (const id of new Set(c.threadIds)) {
        const u = usage.get(id) ?? { count: 0, last: 0 };
        usage.set(id, { count: u.count + 1, last: Math.max(u.last, c.at) });
      }
    }
    const insertOutput = db.prepare(`INSERT INTO stage1_outputs (thread_id, source_updated_at, raw_memory, rollout_summary, rollout_slug,
      generated_at, usage_count, last_usage, selected_for_phase2, selected_for_phase2_source_updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`);
    const insertJob = db.prepare(`INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token, started_at, finished_at, lease_until,
      retry_at, retry_remaining, last_error, input_watermark, last_success_watermark) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)`);
    const workers = input.threads.filter((t) => t.memoryMode === 'enabled');
    const workerFor = (sec: number, exclude?: string): string => {
      // The worker is the root session that was active when the job ran: the newest other thread started before it.
      let best = workers[0]?.id ?? 'unknown';
      for (const w of workers) if (w.id !== exclude && Math.floor(w.createdMs / 1000) <= sec) best = w.id;
      return best;
    };

    db.transaction(() => {
      let watermark = 0;
      let lastGenerated = 0;
      for (const r of input.rows) {
        const t = r.thread;
        const u = usage.get(t.id);
        insertOutput.run(t.id, t.sourceUpdatedAt, r.rawMemory, r.rolloutSummary, t.task.slug, t.generatedAt, u ? u.count : null, u ? u.last : null, t.sourceUpdatedAt);
        insertJob.run('memory_stage1', t.id, 'done', workerFor(t.generatedAt, t.id), input.tokens(), t.generatedAt - 41, t.generatedAt, null, 3, null, t.sourceUpdatedAt, t.sourceUpdatedAt);
        watermark = Math.max(watermark, t.sourceUpdatedAt);
        lastGenerated = Math.max(lastGenerated, t.generatedAt);
      }
      for (const t of input.threads) {
        if (!t.failure) continue;
        const f = t.failure;
        insertJob.run('memory_stage1', t.id, 'error', workerFor(f.finishedAt, t.id), input.tokens(), f.finishedAt - 95, f.finishedAt, f.finishedAt + 3600, f.retryRemaining, f.error, t.sourceUpdatedAt, null);
      }
      const finished = Math.min(lastGenerated + 420, input.nowSec - 600);
      insertJob.run('memory_consolidate_global', 'global', 'done', workerFor(finished), input.tokens(), finished - 233, finished, null, 3, null, watermark, watermark);
    })();
  } finally {
    db.close();
  }
}
