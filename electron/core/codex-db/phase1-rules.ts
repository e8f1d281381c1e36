// Codex's phase 1 rules, read-only: which sessions its startup claim considers (`claim_stage1_jobs_for_startup`), which
// of those it skips as up to date, and which it may claim (`try_claim_stage1_job`) (docs/codex-facts.md, "Phase 1
// claim"). One copy: Health's phase-1 prediction and the coverage ledger both judge with these.
import type { CoverageReason } from '../../../shared/coverage';
import type { MemoriesConfig } from '../../../shared/domain';
import type { Stage1RetryState } from '../../../shared/health';
import { INTERACTIVE_SESSION_SOURCES } from '../codex/constants';

/** What the rules read of a `threads` row. */
export interface ClaimThread {
  id: string;
  source: string | null;
  memoryMode: string;
  archived: boolean;
  updatedAt: number | null;
  /** False when the catalog says the session has no user message (an empty `preview`); null when it cannot tell. */
  hasMessage?: boolean | null;
}

/** What the rules read of a `memory_stage1` job row. */
export interface ClaimJob {
  status: string;
  leaseUntil: number | null;
  retryAt: number | null;
  retryRemaining: number | null;
  inputWatermark: number | null;
  lastSuccessWatermark: number | null;
}

/** What the rules read of a `stage1_outputs` row. */
export interface ClaimOutput {
  sourceUpdatedAt: number | null;
}

const DAY = 86_400;
const HOUR = 3_600;

/** The oldest and newest `updated_at` inside phase 1's window at `nowSec`. */
export function windowBounds(config: MemoriesConfig, nowSec: number): { oldest: number; newest: number } {
  return { oldest: nowSec - config.maxRolloutAgeDays * DAY, newest: nowSec - config.minRolloutIdleHours * HOUR };
}

/** When a session leaves phase 1's window for good (its last activity plus max_rollout_age_days). */
export function agesOutAt(thread: ClaimThread, config: MemoriesConfig): number | null {
  return thread.updatedAt === null ? null : thread.updatedAt + config.maxRolloutAgeDays * DAY;
}

/** When a too-recent session enters the window (its last activity plus min_rollout_idle_hours). */
export function eligibleFrom(thread: ClaimThread, config: MemoriesConfig): number | null {
  return thread.updatedAt === null ? null : thread.updatedAt + config.minRolloutIdleHours * HOUR;
}

/**
 * Why the startup claim's query leaves the session out, in its order (allowed sources and a user message, then
 * `memory_mode = 'enabled'`, not archived, `updated_at` in the window); null when the query returns it.
 */
export function notEligibleReason(thread: ClaimThread, config: MemoriesConfig, nowSec: number): CoverageReason | null {
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
export function upToDate(thread: ClaimThread, output: ClaimOutput | undefined, job: ClaimJob | undefined): boolean {
  const updated = thread.updatedAt;
  if (updated === null) return false;
  if (output?.sourceUpdatedAt != null && output.sourceUpdatedAt >= updated) return true;
  return job?.lastSuccessWatermark != null && job.lastSuccessWatermark >= updated;
}

/** The claim passes the session's `updated_at` as the new input watermark; a newer one resets retries and back-off. */
export function newInput(thread: ClaimThread, job: ClaimJob): boolean {
  return thread.updatedAt !== null && thread.updatedAt > (job.inputWatermark ?? -1);
}

export function leaseLive(job: ClaimJob, nowSec: number): boolean {
  return job.status === 'running' && job.leaseUntil !== null && job.leaseUntil > nowSec;
}

/** `try_claim_stage1_job`'s guarded upsert: no live lease, the back-off over or new input, retries left or new input. */
export function claimable(thread: ClaimThread, job: ClaimJob | undefined, nowSec: number): boolean {
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
export function retryStateOf(thread: ClaimThread, job: ClaimJob, nowSec: number): Stage1RetryState | null {
  if (job.status === 'running') return leaseLive(job, nowSec) ? null : 'lease-expired';
  if (job.status !== 'error') return null;
  if (newInput(thread, job)) return 'new-input';
  if (job.retryRemaining !== null && job.retryRemaining <= 0) return 'exhausted';
  if (job.retryAt !== null && job.retryAt > nowSec) return 'backoff';
  return 'due';
}
