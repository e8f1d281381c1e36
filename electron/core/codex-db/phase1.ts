// Which threads Codex's phase 1 would claim at the next session start (`claim_stage1_jobs_for_startup`), read-only.
import type Database from 'better-sqlite3';
import type { MemoriesConfig } from '../../../shared/domain';
import type { Phase1Claims } from '../../../shared/health';
import { INTERACTIVE_SESSION_SOURCES, JOB_KINDS } from '../codex/constants';
import type { TableView } from './schema';
import type { ThreadRow } from './threads';
import { noHorizon, type Horizon } from './horizon';
import { intOrNull } from './time';

/** How many eligible thread ids a report lists (the count is always exact). */
const LISTED_IDS = 50;

/** A thread Codex's startup scan looks at: an interactive, enabled, unarchived session idle inside the age window. */
export function inPhase1Window(thread: ThreadRow, config: MemoriesConfig, nowSec: number): boolean {
  if (!thread.source || !INTERACTIVE_SESSION_SOURCES.includes(thread.source)) return false;
  if (thread.memoryMode !== 'enabled' || thread.archived || thread.updatedAt === null) return false;
  const oldest = nowSec - config.maxRolloutAgeDays * 86_400;
  const newest = nowSec - config.minRolloutIdleHours * 3_600;
  return thread.updatedAt >= oldest && thread.updatedAt <= newest;
}

interface JobState {
  status: unknown;
  lease_until: unknown;
  retry_at: unknown;
  retry_remaining: unknown;
}

/**
 * `try_claim_stage1_job` for each thread in the window, newest first: skipped when its stage-1 output is as new as
 * the thread, when its job has no retries left, is backing off, or runs under a live lease; otherwise claimable.
 * Codex claims at most `max_rollouts_per_startup` of them per session start (the current session excluded).
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
  const sourceUpdated = new Map<string, number>();
  if (outputs) {
    for (const row of db.prepare(`SELECT thread_id, source_updated_at FROM (${outputs.sql})`).iterate() as Iterable<{
      thread_id: unknown;
      source_updated_at: unknown;
    }>) {
      const at = intOrNull(row.source_updated_at);
      if (typeof row.thread_id === 'string' && at !== null) sourceUpdated.set(row.thread_id, at);
    }
  }
  const jobState = new Map<string, JobState>();
  if (jobs) {
    const rows = db
      .prepare(`SELECT job_key, status, lease_until, retry_at, retry_remaining FROM (${jobs.sql}) WHERE kind = ?`)
      .iterate(JOB_KINDS.stage1) as Iterable<JobState & { job_key: unknown }>;
    for (const row of rows) if (typeof row.job_key === 'string') jobState.set(row.job_key, row);
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
  for (const thread of window) {
    const updated = thread.updatedAt as number;
    const output = sourceUpdated.get(thread.id);
    if (output !== undefined && output >= updated) {
      result.skipped.upToDate++;
      continue;
    }
    const job = jobState.get(thread.id);
    if (job) {
      const remaining = intOrNull(job.retry_remaining);
      const retryAt = intOrNull(job.retry_at);
      const lease = intOrNull(job.lease_until);
      horizon.at(retryAt);
      if (job.status === 'running') horizon.at(lease);
      if (remaining !== null && remaining <= 0) {
        result.skipped.retryExhausted++;
        continue;
      }
      if (retryAt !== null && retryAt > nowSec) {
        result.skipped.retryBackoff++;
        continue;
      }
      if (job.status === 'running' && lease !== null && lease > nowSec) {
        result.skipped.running++;
        continue;
      }
    }
    result.eligible++;
    if (result.threadIds.length < LISTED_IDS) result.threadIds.push(thread.id);
  }
  result.nextStartClaims = Math.min(result.eligible, config.maxRolloutsPerStartup);
  return result;
}
