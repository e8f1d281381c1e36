// The global Phase 2 claim and stage-1 retry states, row by row, against Codex's acquire conditions in memories.rs.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { globalClaim, readGlobalJob, readStage1Jobs } from '../../../electron/core/codex-db';
import { jobsView } from '../../../electron/core/codex-db/jobs';
import { tableColumns } from '../../../electron/core/codex-db/schema';
import type { ThreadRow } from '../../../electron/core/codex-db/threads';
import { MEMORY_MIGRATION_SQL } from '../../../electron/core/demo-home/databases';

const NOW = 1_800_000_000;
const HOUR = 3600;
let db: Database.Database | null = null;

afterEach(() => {
  db?.close();
  db = null;
});

interface Row {
  status: string;
  finished_at?: number | null;
  lease_until?: number | null;
  retry_at?: number | null;
  retry_remaining?: number;
  last_error?: string | null;
  input_watermark?: number | null;
}

function withJobs(rows: Array<Row & { kind?: string; key?: string }>): Database.Database {
  db = new Database(':memory:');
  db.exec(MEMORY_MIGRATION_SQL);
  const insert =
    db.prepare(`INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token, started_at, finished_at, lease_until, retry_at,
    retry_remaining, last_error, input_watermark, last_success_watermark) VALUES (?, ?, ?, 'worker-1', 'token', ?, ?, ?, ?, ?, ?, ?, NULL)`);
  for (const r of rows) {
    insert.run(
      r.kind ?? 'memory_consolidate_global',
      r.key ?? 'global',
      r.status,
      NOW - 2 * HOUR,
      r.finished_at ?? null,
      r.lease_until ?? null,
      r.retry_at ?? null,
      r.retry_remaining ?? 3,
      r.last_error ?? null,
      r.input_watermark ?? null,
    );
  }
  return db;
}

function claimFor(row: Row | null) {
  const conn = withJobs(row ? [row] : []);
  const view = jobsView(tableColumns(conn, 'jobs') ?? new Set());
  const job = readGlobalJob(conn, view, NOW);
  return { job, claim: globalClaim(job) };
}

describe('globalClaim', () => {
  it('is claimable when the row does not exist yet (Codex inserts it)', () => {
    expect(claimFor(null).claim).toMatchObject({ claimableNow: true, outcome: 'claimable' });
  });

  it('refuses during retry backoff first, even when a lease is also live', () => {
    const { claim } = claimFor({ status: 'running', lease_until: NOW + 100, retry_at: NOW + 50, last_error: 'failed_agent' });
    expect(claim).toMatchObject({ claimableNow: false, outcome: 'skipped_retry_unavailable', nextClaimAt: { seconds: NOW + 100 } });
    expect(claim.reason).toMatch(/failed_agent/);
  });

  it('refuses while a running lease is live, and allows stealing an expired one', () => {
    expect(claimFor({ status: 'running', lease_until: NOW + 1 }).claim.outcome).toBe('skipped_running');
    const expired = claimFor({ status: 'running', lease_until: NOW });
    expect(expired.job?.leaseLive).toBe(false);
    expect(expired.claim).toMatchObject({ claimableNow: true, outcome: 'claimable' });
    expect(expired.claim.reason).toMatch(/expired/);
  });

  it('applies the 6 h cooldown after a success, also when an enqueue set the row back to pending', () => {
    for (const status of ['done', 'pending']) {
      const { job, claim } = claimFor({ status, finished_at: NOW - HOUR });
      expect(job?.cooldownEndsAt?.seconds).toBe(NOW - HOUR + 21_600);
      expect(claim).toMatchObject({ claimableNow: false, outcome: 'skipped_cooldown' });
    }
    // Exactly at the boundary Codex's `finished_at > now - 21600` is false: claimable.
    expect(claimFor({ status: 'done', finished_at: NOW - 21_600 }).claim.claimableNow).toBe(true);
  });

  it('has no cooldown after a failure once the backoff has passed', () => {
    const { job, claim } = claimFor({
      status: 'error',
      finished_at: NOW - HOUR,
      retry_at: NOW - 1,
      last_error: 'failed_invalid_artifacts',
      retry_remaining: 0,
    });
    expect(job?.cooldownEndsAt).toBeNull();
    // Codex does not check retry_remaining for the global job.
    expect(claim).toMatchObject({ claimableNow: true, outcome: 'claimable' });
  });
});

describe('stage-1 retry states', () => {
  const thread = (id: string, updatedAt: number): ThreadRow => ({
    id,
    rolloutPath: `/s/${id}.jsonl`,
    cwd: '/w',
    memoryMode: 'enabled',
    archived: false,
    updatedAt,
    createdAt: updatedAt - 60,
    source: 'cli',
  });

  it('classifies backoff, due, exhausted, new input and abandoned leases', () => {
    const conn = withJobs([
      {
        kind: 'memory_stage1',
        key: 'a',
        status: 'error',
        retry_at: NOW + 60,
        retry_remaining: 2,
        last_error: 'x',
        input_watermark: 100,
        finished_at: NOW - 5,
      },
      {
        kind: 'memory_stage1',
        key: 'b',
        status: 'error',
        retry_at: NOW - 60,
        retry_remaining: 2,
        last_error: 'x',
        input_watermark: 100,
        finished_at: NOW - 4,
      },
      {
        kind: 'memory_stage1',
        key: 'c',
        status: 'error',
        retry_at: NOW + 60,
        retry_remaining: 0,
        last_error: 'x',
        input_watermark: 100,
        finished_at: NOW - 3,
      },
      {
        kind: 'memory_stage1',
        key: 'd',
        status: 'error',
        retry_at: NOW + 60,
        retry_remaining: 0,
        last_error: 'x',
        input_watermark: 100,
        finished_at: NOW - 2,
      },
      { kind: 'memory_stage1', key: 'e', status: 'running', lease_until: NOW - 1, input_watermark: 100 },
      { kind: 'memory_stage1', key: 'f', status: 'running', lease_until: NOW + 600, input_watermark: 100 },
      { kind: 'memory_stage1', key: 'g', status: 'done', input_watermark: 100, finished_at: NOW - 1 },
    ]);
    const threads = new Map([
      ['d', thread('d', 200)],
      ['c', thread('c', 100)],
    ]);
    const jobs = readStage1Jobs(conn, jobsView(tableColumns(conn, 'jobs') ?? new Set()), threads, NOW, 10);
    expect(jobs.byStatus).toEqual({ pending: 0, running: 2, done: 1, error: 4, other: 0 });
    expect(jobs.runningLive).toBe(1);
    expect(jobs.issuesTotal).toBe(5);
    expect(Object.fromEntries(jobs.issues.map((i) => [i.threadId, i.retryState]))).toEqual({
      a: 'backoff',
      b: 'due',
      c: 'exhausted',
      d: 'new-input',
      e: 'lease-expired',
    });
    expect(jobs.issues.find((i) => i.threadId === 'd')?.rolloutPath).toBe('/s/d.jsonl');
    expect(readStage1Jobs(conn, jobsView(tableColumns(conn, 'jobs') ?? new Set()), null, NOW, 2).issues).toHaveLength(2);
  });
});
