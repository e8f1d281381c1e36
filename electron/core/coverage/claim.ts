// Codex's phase 1 rules, read-only: which sessions its startup claim considers (`claim_stage1_jobs_for_startup`), which
// of those it skips as up to date, which it may claim (`try_claim_stage1_job`), and in which order (docs/codex-facts.md,
// "Phase 1 claim").
import type { CoverageReason } from '../../../shared/coverage';
import type { MemoriesConfig } from '../../../shared/domain';
import type { Stage1RetryState } from '../../../shared/health';
import { INTERACTIVE_SESSION_SOURCES, PHASE1_THREAD_SCAN_LIMIT } from '../codex/constants';
import type { CoverageThreadRow, JobRow, OutputRow } from './read';

const DAY = 86_400;
const HOUR = 3_600;

/** The oldest and newest `updated_at` inside phase 1's window at `nowSec`. */
export function windowBounds(config: MemoriesConfig, nowSec: number): { oldest: number; newest: number } {
  return { oldest: nowSec - config.maxRolloutAgeDays * DAY, newest: nowSec - config.minRolloutIdleHours * HOUR };
}

/** When a session leaves phase 1's window for good (its last activity plus max_rollout_age_days). */
export function agesOutAt(thread: CoverageThreadRow, config: MemoriesConfig): number | null {
  return thread.updatedAt === null ? null : thread.updatedAt + config.maxRolloutAgeDays * DAY;
}

/** When a too-recent session enters the window (its last activity plus min_rollout_idle_hours). */
export function eligibleFrom(thread: CoverageThreadRow, config: MemoriesConfig): number | null {
  return thread.updatedAt === null ? null : thread.updatedAt + config.minRolloutIdleHours * HOUR;
}

/**
 * Why the startup claim's query leaves the session out, in its order (allowed sources and a user message, then
 * `memory_mode = 'enabled'`, not archived, `updated_at` in the window); null when the query returns it.
 */
export function notEligibleReason(thread: CoverageThreadRow, config: MemoriesConfig, nowSec: number): CoverageReason | null {
  if (!thread.source || !INTERACTIVE_SESSION_SOURCES.includes(thread.source)) return 'source';
  // A session without a user message is not listed by Codex's thread queries, the claim's included.
  if (thread.hasMessage === false) return 'source';
  if (thread.memoryMode === 'polluted') return 'polluted';
  if (thread.memoryMode !== 'enabled') return 'memory-disabled';
  if (thread.archived) return 'archived';
  if (thread.updatedAt === null) return 'no-time';
  const { oldest, newest } = windowBounds(config, nowSec);
  if (thread.updatedAt < oldest) return 'too-old';
  if (thread.updatedAt > newest) return 'too-recent';
  return null;
}

/** Codex skips a session as up to date when its output, or its job's last success, is as new as the session. */
export function upToDate(thread: CoverageThreadRow, output: OutputRow | undefined, job: JobRow | undefined): boolean {
  const updated = thread.updatedAt;
  if (updated === null) return false;
  if (output?.sourceUpdatedAt != null && output.sourceUpdatedAt >= updated) return true;
  return job?.lastSuccessWatermark != null && job.lastSuccessWatermark >= updated;
}

/** The claim passes the session's `updated_at` as the new input watermark; a newer one resets retries and back-off. */
export function newInput(thread: CoverageThreadRow, job: JobRow): boolean {
  return thread.updatedAt !== null && thread.updatedAt > (job.inputWatermark ?? -1);
}

export function leaseLive(job: JobRow, nowSec: number): boolean {
  return job.status === 'running' && job.leaseUntil !== null && job.leaseUntil > nowSec;
}

/** `try_claim_stage1_job`'s guarded upsert: no live lease, the back-off over or new input, retries left or new input. */
export function claimable(thread: CoverageThreadRow, job: JobRow | undefined, nowSec: number): boolean {
  if (!job) return true;
  if (leaseLive(job, nowSec)) return false;
  const advanced = newInput(thread, job);
  if (job.retryAt !== null && job.retryAt > nowSec && !advanced) return false;
  return (job.retryRemaining ?? 0) > 0 || advanced;
}

/**
 * Whether Codex will try a failed (`error`) or abandoned (`running` past its lease) stage-1 job again, most permanent
 * reason first (as health's); null for any other job.
 */
export function retryStateOf(thread: CoverageThreadRow, job: JobRow, nowSec: number): Stage1RetryState | null {
  if (job.status === 'running') return leaseLive(job, nowSec) ? null : 'lease-expired';
  if (job.status !== 'error') return null;
  if (newInput(thread, job)) return 'new-input';
  if (job.retryRemaining !== null && job.retryRemaining <= 0) return 'exhausted';
  if (job.retryAt !== null && job.retryAt > nowSec) return 'backoff';
  return 'due';
}

/** Where a session stands in the next claims: its place among the claimable ones and the session start that takes it. */
export interface QueueSpot {
  /** 1-based place among the sessions Codex would claim, newest first. */
  place: number;
  /** 1-based: the session start (from now) that claims it, if no newer session comes first. */
  start: number;
}

export interface ClaimOrder {
  spots: Map<string, QueueSpot>;
  /** Sessions in the window past the scan limit, by their 1-based rank in it. */
  unscanned: Map<string, number>;
  claimableCount: number;
}

const newestFirst = (a: CoverageThreadRow, b: CoverageThreadRow) =>
  (b.updatedAt ?? 0) - (a.updatedAt ?? 0) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * The startup claim in order: the window's sessions newest first (at most the scan limit, up-to-date ones included),
 * the up-to-date ones skipped, and of the rest those a claim would take, `max_rollouts_per_startup` per session start.
 */
export function claimOrder(
  threads: readonly CoverageThreadRow[],
  outputs: ReadonlyMap<string, OutputRow>,
  jobs: ReadonlyMap<string, JobRow>,
  config: MemoriesConfig,
  nowSec: number,
): ClaimOrder {
  const window = threads.filter((t) => notEligibleReason(t, config, nowSec) === null).sort(newestFirst);
  const spots = new Map<string, QueueSpot>();
  const unscanned = new Map<string, number>();
  const perStart = Math.max(1, config.maxRolloutsPerStartup);
  window.forEach((thread, rank) => {
    const job = jobs.get(thread.id);
    if (upToDate(thread, outputs.get(thread.id), job) || !claimable(thread, job, nowSec)) return;
    if (rank >= PHASE1_THREAD_SCAN_LIMIT) {
      unscanned.set(thread.id, rank + 1);
      return;
    }
    const place = spots.size + 1;
    spots.set(thread.id, { place, start: Math.ceil(place / perStart) });
  });
  return { spots, unscanned, claimableCount: spots.size };
}
