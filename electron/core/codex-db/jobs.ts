// Reads Codex's `jobs` table: stage-1 jobs by status and their failures, and the global Phase 2 lock with Codex's claim rules.
import type Database from 'better-sqlite3';
import type { GlobalClaim, GlobalJob, JobStatusCounts, Stage1JobIssue, Stage1Jobs, Stage1RetryState } from '../../../shared/health';
import { GLOBAL_JOB_KEY, JOB_KINDS, JOB_STATUSES, PHASE2_COOLDOWN_SECONDS } from '../codex/constants';
import type { TableView } from './schema';
import { tableView } from './schema';
import type { ThreadRow } from './threads';
import { noHorizon, type Horizon } from './horizon';
import { intOrNull, stringOrNull, unixTime } from './time';

export const JOB_COLUMNS = [
  'kind',
  'job_key',
  'status',
  'worker_id',
  'ownership_token',
  'started_at',
  'finished_at',
  'lease_until',
  'retry_at',
  'retry_remaining',
  'last_error',
  'input_watermark',
  'last_success_watermark',
] as const;

type RawJob = Record<(typeof JOB_COLUMNS)[number], unknown>;

export function jobsView(columns: ReadonlySet<string>): TableView {
  return tableView('jobs', columns, JOB_COLUMNS);
}

function emptyCounts(): JobStatusCounts {
  return { pending: 0, running: 0, done: 0, error: 0, other: 0 };
}

/** Codex's retry decision for one stage-1 row (`try_claim_stage1_job`), most permanent reason first. */
export function stage1RetryState(job: RawJob, thread: ThreadRow | undefined, nowSec: number): Stage1RetryState {
  if (job.status === 'running') return 'lease-expired';
  const watermark = intOrNull(job.input_watermark) ?? -1;
  // The claim passes the thread's updated_at as the new input watermark; a newer one resets retries and backoff.
  if (thread?.updatedAt != null && thread.updatedAt > watermark) return 'new-input';
  const remaining = intOrNull(job.retry_remaining);
  if (remaining !== null && remaining <= 0) return 'exhausted';
  const retryAt = intOrNull(job.retry_at);
  if (retryAt !== null && retryAt > nowSec) return 'backoff';
  return 'due';
}

function toIssue(job: RawJob, thread: ThreadRow | undefined, nowSec: number): Stage1JobIssue {
  const issue: Stage1JobIssue = {
    threadId: String(job.job_key),
    status: String(job.status),
    lastError: stringOrNull(job.last_error),
    retryAt: unixTime(job.retry_at),
    retryRemaining: intOrNull(job.retry_remaining),
    startedAt: unixTime(job.started_at),
    finishedAt: unixTime(job.finished_at),
    leaseUntil: unixTime(job.lease_until),
    inputWatermark: unixTime(job.input_watermark),
    retryState: stage1RetryState(job, thread, nowSec),
  };
  if (thread?.rolloutPath) issue.rolloutPath = thread.rolloutPath;
  if (thread?.cwd) issue.cwd = thread.cwd;
  if (thread) issue.memoryMode = thread.memoryMode;
  return issue;
}

/** Stage-1 counts by status, and the failed, retrying or abandoned rows (error, a last_error, or a dead lease). */
export function readStage1Jobs(
  db: Database.Database,
  view: TableView,
  threads: Map<string, ThreadRow> | null,
  nowSec: number,
  cap: number,
  horizon: Horizon = noHorizon(nowSec),
): Stage1Jobs {
  const byStatus = emptyCounts();
  let total = 0;
  let runningLive = 0;
  const grouped = db
    .prepare(
      `SELECT status, COUNT(*) AS n, SUM(CASE WHEN status = 'running' AND lease_until > ? THEN 1 ELSE 0 END) AS live
      FROM (${view.sql}) WHERE kind = ? GROUP BY status`,
    )
    .all(nowSec, JOB_KINDS.stage1) as Array<{ status: unknown; n: number; live: number | null }>;
  for (const g of grouped) {
    const key = (JOB_STATUSES as readonly unknown[]).includes(g.status) ? (g.status as keyof JobStatusCounts) : 'other';
    byStatus[key] += g.n;
    total += g.n;
    runningLive += g.live ?? 0;
  }
  const where = `kind = ? AND (status = 'error' OR last_error IS NOT NULL OR (status = 'running' AND (lease_until IS NULL OR lease_until <= ?)))`;
  const issuesTotal = (db.prepare(`SELECT COUNT(*) AS n FROM (${view.sql}) WHERE ${where}`).get(JOB_KINDS.stage1, nowSec) as { n: number })
    .n;
  const rows = db
    .prepare(`SELECT * FROM (${view.sql}) WHERE ${where} ORDER BY COALESCE(finished_at, started_at, 0) DESC, job_key ASC LIMIT ?`)
    .all(JOB_KINDS.stage1, nowSec, cap) as RawJob[];
  const issues = rows.map((job) => toIssue(job, threads?.get(String(job.job_key)), nowSec));
  // A running job's lease ending changes the live count and the list of abandoned jobs; a retry time, a listed state.
  horizon.at(
    intOrNull(
      (
        db
          .prepare(`SELECT MIN(lease_until) AS at FROM (${view.sql}) WHERE kind = ? AND status = 'running' AND lease_until > ?`)
          .get(JOB_KINDS.stage1, nowSec) as { at: unknown }
      ).at,
    ),
  );
  for (const job of rows) horizon.at(intOrNull(job.retry_at));
  return { total, byStatus, runningLive, issues, issuesTotal, issuesCap: cap };
}

/** The singleton global row, or null when Codex has not created it yet. */
export function readGlobalJob(
  db: Database.Database,
  view: TableView,
  nowSec: number,
  horizon: Horizon = noHorizon(nowSec),
): GlobalJob | null {
  const job = db.prepare(`SELECT * FROM (${view.sql}) WHERE kind = ? AND job_key = ?`).get(JOB_KINDS.global, GLOBAL_JOB_KEY) as
    RawJob | undefined;
  if (!job) return null;
  const status = String(job.status);
  const leaseUntil = intOrNull(job.lease_until);
  const retryAt = intOrNull(job.retry_at);
  const finishedAt = intOrNull(job.finished_at);
  const lastError = stringOrNull(job.last_error);
  // Codex's cooldown test is `last_error IS NULL AND finished_at > now - 6 h`, whatever the status (an enqueue
  // after a success leaves status 'pending' with the same finished_at, and the cooldown still holds).
  const cooldownEnds = lastError === null && finishedAt !== null ? finishedAt + PHASE2_COOLDOWN_SECONDS : null;
  if (status === 'running') horizon.at(leaseUntil);
  horizon.at(retryAt);
  horizon.at(cooldownEnds);
  return {
    status,
    workerId: stringOrNull(job.worker_id),
    ownershipTokenPresent: typeof job.ownership_token === 'string' && job.ownership_token !== '',
    leaseUntil: unixTime(leaseUntil),
    leaseLive: status === 'running' && leaseUntil !== null && leaseUntil > nowSec,
    startedAt: unixTime(job.started_at),
    finishedAt: unixTime(finishedAt),
    lastError,
    retryAt: unixTime(retryAt),
    retryBackoffActive: retryAt !== null && retryAt > nowSec,
    retryRemaining: intOrNull(job.retry_remaining),
    inputWatermark: unixTime(job.input_watermark),
    lastSuccessWatermark: unixTime(job.last_success_watermark),
    cooldownEndsAt: unixTime(cooldownEnds),
    cooldownActive: cooldownEnds !== null && cooldownEnds > nowSec,
  };
}

/**
 * `try_claim_global_phase2_job`'s three refusals, in Codex's order: retry backoff, a live running lease, the 6 h
 * success cooldown. A missing row is claimable (Codex inserts it). The lock says nothing about whether there is
 * work: Phase 2 decides that from the git workspace diff after claiming.
 */
export function globalClaim(job: GlobalJob | null): GlobalClaim {
  if (!job) {
    return {
      claimableNow: true,
      outcome: 'claimable',
      reason: 'No global Phase 2 row yet: the next consolidation creates and claims it.',
      nextClaimAt: null,
    };
  }
  const blockers: number[] = [];
  if (job.retryBackoffActive && job.retryAt) blockers.push(job.retryAt.seconds);
  if (job.leaseLive && job.leaseUntil) blockers.push(job.leaseUntil.seconds);
  if (job.cooldownActive && job.cooldownEndsAt) blockers.push(job.cooldownEndsAt.seconds);
  const nextClaimAt = blockers.length > 0 ? unixTime(Math.max(...blockers)) : null;
  if (job.retryBackoffActive && job.retryAt) {
    const why = job.lastError ? ` after the failure "${job.lastError}"` : '';
    return {
      claimableNow: false,
      outcome: 'skipped_retry_unavailable',
      reason: `Retry backoff${why}: Codex will not consolidate before ${job.retryAt.iso}.`,
      nextClaimAt,
    };
  }
  if (job.leaseLive && job.leaseUntil) {
    const who = job.workerId ? ` by worker ${job.workerId}` : '';
    return {
      claimableNow: false,
      outcome: 'skipped_running',
      reason: `A consolidation holds the lock${who}; its lease runs until ${job.leaseUntil.iso}.`,
      nextClaimAt,
    };
  }
  if (job.cooldownActive && job.cooldownEndsAt && job.finishedAt) {
    return {
      claimableNow: false,
      outcome: 'skipped_cooldown',
      reason: `The last consolidation succeeded at ${job.finishedAt.iso}; Codex waits 6 h, until ${job.cooldownEndsAt.iso}.`,
      nextClaimAt,
    };
  }
  const stale = job.status === 'running' ? " (the previous holder's lease has expired)" : '';
  return {
    claimableNow: true,
    outcome: 'claimable',
    reason: `The lock is free${stale}: the next root session start may consolidate if the workspace has changes.`,
    nextClaimAt: null,
  };
}
