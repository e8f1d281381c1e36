// Which threads Codex's phase 1 would claim at the next session start (`claim_stage1_jobs_for_startup`), read-only.
import type Database from 'better-sqlite3';
import type { MemoriesConfig } from '../../../shared/domain';
import type { Phase1Claims } from '../../../shared/health';
import { JOB_KINDS, PHASE1_THREAD_SCAN_LIMIT } from '../codex/constants';
import { claimable, leaseLive, notEligibleReason, upToDate, type ClaimJob, type ClaimOutput } from './phase1-rules';
import type { TableView } from './schema';
import type { ThreadRow } from './threads';
import { noHorizon, type Horizon } from './horizon';
import { intOrNull } from './time';

/** How many eligible thread ids a report lists (the count is always exact). */
const LISTED_IDS = 50;

/** A thread Codex's startup scan looks at: an interactive, enabled, unarchived session idle inside the age window. */
export function inPhase1Window(thread: ThreadRow, config: MemoriesConfig, nowSec: number): boolean {
  return notEligibleReason(thread, config, nowSec) === null;
}

/**
 * `claim_stage1_jobs_for_startup` with the one copy of Codex's rules (phase1-rules.ts): the window newest first (at
 * most the scan limit), up-to-date sessions skipped (by output or by the job's last success), then
 * `try_claim_stage1_job`'s conditions, new input overriding back-off and exhaustion. Codex claims at most
 * `max_rollouts_per_startup` of them per session start (the current session excluded).
 */
export function phase1Claims(
  db: Database.Database,
  jobs: TableView | null,
  outputs: TableView | null,
  threads: Iterable<ThreadRow>,
  config: MemoriesConfig,
  nowSec: number,
  horizon: Horizon = noHorizon(nowSec),
): Phase1Claims {
  const outputRows = new Map<string, ClaimOutput>();
  if (outputs) {
    for (const row of db.prepare(`SELECT thread_id, source_updated_at FROM (${outputs.sql})`).iterate() as Iterable<{
      thread_id: unknown;
      source_updated_at: unknown;
    }>) {
      if (typeof row.thread_id === 'string') outputRows.set(row.thread_id, { sourceUpdatedAt: intOrNull(row.source_updated_at) });
    }
  }
  const jobRows = new Map<string, ClaimJob>();
  if (jobs) {
    const rows = db
      .prepare(
        `SELECT job_key, status, lease_until, retry_at, retry_remaining, input_watermark, last_success_watermark FROM (${jobs.sql}) WHERE kind = ?`,
      )
      .iterate(JOB_KINDS.stage1) as Iterable<Record<string, unknown>>;
    for (const row of rows) {
      if (typeof row.job_key !== 'string') continue;
      jobRows.set(row.job_key, {
        status: String(row.status),
        leaseUntil: intOrNull(row.lease_until),
        retryAt: intOrNull(row.retry_at),
        retryRemaining: intOrNull(row.retry_remaining),
        inputWatermark: intOrNull(row.input_watermark),
        lastSuccessWatermark: intOrNull(row.last_success_watermark),
      });
    }
  }
  const result: Phase1Claims = {
    eligible: 0,
    nextStartClaims: 0,
    perStartup: config.maxRolloutsPerStartup,
    skipped: { upToDate: 0, retryExhausted: 0, retryBackoff: 0, running: 0 },
    threadIds: [],
  };
  const window = [...threads].filter((t) => {
    if (t.updatedAt !== null) {
      // The age window moves with the clock: a thread enters it at updated + idle hours and leaves at updated + max age.
      horizon.at(t.updatedAt + config.minRolloutIdleHours * 3_600);
      horizon.at(t.updatedAt + config.maxRolloutAgeDays * 86_400);
    }
    return inPhase1Window(t, config, nowSec);
  });
  window.sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  for (const thread of window.slice(0, PHASE1_THREAD_SCAN_LIMIT)) {
    const job = jobRows.get(thread.id);
    if (upToDate(thread, outputRows.get(thread.id), job)) {
      result.skipped.upToDate++;
      continue;
    }
    if (job) {
      horizon.at(job.retryAt);
      if (job.status === 'running') horizon.at(job.leaseUntil);
    }
    if (job && !claimable(thread, job, nowSec)) {
      if (leaseLive(job, nowSec)) result.skipped.running++;
      else if ((job.retryRemaining ?? 0) <= 0) result.skipped.retryExhausted++;
      else result.skipped.retryBackoff++;
      continue;
    }
    result.eligible++;
    if (result.threadIds.length < LISTED_IDS) result.threadIds.push(thread.id);
  }
  result.nextStartClaims = Math.min(result.eligible, config.maxRolloutsPerStartup);
  return result;
}
