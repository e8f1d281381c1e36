// One session's stage in Codex's memory pipeline, judged with phase 1's own rules, and the sentence that says it.
import type { CoverageJob, CoverageOutput, CoverageReason, CoverageStage, CoverageThread } from '../../../shared/coverage';
import type { MemoriesConfig, MemoryVersion } from '../../../shared/domain';
import type { Stage1RetryState } from '../../../shared/health';
import { unixTime } from '../codex-db/time';
import { agesOutAt, eligibleFrom, leaseLive, notEligibleReason, retryStateOf, upToDate, type ClaimOrder } from './claim';
import type { CoverageThreadRow, JobRow, OutputRow } from './read';
import { sourceLabel } from './source-label';
import { day, firstLine, ordinal, plural, utc } from './words';

export interface JudgeContext {
  version: MemoryVersion;
  config: MemoriesConfig;
  nowSec: number;
  outputs: ReadonlyMap<string, OutputRow>;
  jobs: ReadonlyMap<string, JobRow>;
  order: ClaimOrder;
  /** Why Codex extracts nothing at all for this version now (the feature off, another version configured), or null. */
  pipelineNote: string | null;
}

export type JudgedThread = Omit<CoverageThread, 'presence'>;

/** The furthest stage that applies: an output first, then a live extraction, a finished one, a failure, the window. */
function stageOf(
  thread: CoverageThreadRow,
  output: OutputRow | undefined,
  job: JobRow | undefined,
  reason: CoverageReason | null,
  retry: Stage1RetryState | null,
  nowSec: number,
): CoverageStage {
  if (output) return output.selected ? 'selected' : 'extracted';
  if (job && leaseLive(job, nowSec)) return 'extracting';
  // A success that kept nothing (Codex found nothing worth remembering) leaves the job's watermark and no output.
  if (job && upToDate(thread, undefined, job)) return 'extracted';
  if (job && retry !== null) return retry === 'exhausted' ? 'exhausted' : 'failed';
  return reason === null ? 'waiting' : 'not-eligible';
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

function notEligibleDetail(thread: CoverageThreadRow, reason: CoverageReason, config: MemoriesConfig): string {
  switch (reason) {
    case 'source':
      if (thread.source && thread.hasMessage === false && ['cli', 'vscode'].includes(thread.source))
        return "The session has no user message (its preview is empty): Codex's phase 1 only picks up sessions with one.";
      return `Its source is ${sourceLabel(thread.source)}: Codex's phase 1 extracts only interactive CLI and VS Code sessions, so it never reads this one.`;
    case 'polluted':
      return 'Codex marked this session polluted (it used outside context such as MCP tools or web search): it is never extracted.';
    case 'memory-disabled':
      return `Memory is off for this session (memory_mode "${thread.memoryMode}"): Codex never extracts it.`;
    case 'archived':
      return "The session is archived: Codex's phase 1 skips archived sessions.";
    case 'no-time':
      return "The thread catalog has no usable updated_at for this session, so it never falls inside phase 1's window.";
    case 'too-old':
      return `Last active ${utc(thread.updatedAt ?? 0)}, more than max_rollout_age_days (${config.maxRolloutAgeDays}) ago: Codex no longer extracts it.`;
    case 'too-recent':
      return `Active ${utc(thread.updatedAt ?? 0)}; Codex waits until a session has been idle for min_rollout_idle_hours (${config.minRolloutIdleHours} h): eligible from ${utc(eligibleFrom(thread, config) ?? 0)}.`;
  }
}

/** When Codex claims it: its place among the claimable sessions, or why it is not reached. */
function claimWords(thread: CoverageThreadRow, ctx: JudgeContext): string {
  const spot = ctx.order.spots.get(thread.id);
  const perStart = ctx.config.maxRolloutsPerStartup;
  if (spot) {
    const when = spot.start === 1 ? 'the next session start' : `the ${ordinal(spot.start)} session start from now`;
    return `Codex claims up to ${plural(perStart, 'session')} per session start, newest first: this one is ${ordinal(spot.place)} in line, so ${when} takes it (if no newer session comes first)`;
  }
  const rank = ctx.order.unscanned.get(thread.id);
  if (rank)
    return `Codex's claim scans only the 5,000 newest sessions of its window and this one is the ${ordinal(rank)}: it is not reached until newer ones age out`;
  return 'Codex claims it at a session start';
}

function withNote(text: string, ctx: JudgeContext): string {
  return ctx.pipelineNote ? `${text} ${ctx.pipelineNote}` : text;
}

function windowCloses(thread: CoverageThreadRow, ctx: JudgeContext): string {
  const closes = agesOutAt(thread, ctx.config);
  return closes === null ? '' : ` Its window closes ${utc(closes)}.`;
}

function failedDetail(
  thread: CoverageThreadRow,
  job: JobRow,
  retry: Stage1RetryState,
  reason: CoverageReason | null,
  ctx: JudgeContext,
): string {
  const error = firstLine(job.lastError);
  const failed =
    retry === 'lease-expired'
      ? `An extraction started ${job.startedAt !== null ? utc(job.startedAt) : 'earlier'} and its worker vanished (the lease ended ${job.leaseUntil !== null ? utc(job.leaseUntil) : 'long ago'}).`
      : `The extraction failed${job.finishedAt !== null ? ` ${utc(job.finishedAt)}` : ''}${error ? ` ("${error}")` : ''}.`;
  if (retry === 'exhausted') return `${failed} No retries are left: Codex never tries again unless the session changes.`;
  if (reason !== null && reason !== 'too-recent')
    return `${failed} Codex will not retry it: ${lowerFirst(notEligibleDetail(thread, reason, ctx.config))}`;
  const tries = job.retryRemaining !== null ? ` (${plural(job.retryRemaining, 'try', 'tries')} left)` : '';
  if (retry === 'backoff')
    return withNote(`${failed} Codex retries after ${utc(job.retryAt ?? 0)}${tries}.${windowCloses(thread, ctx)}`, ctx);
  const why = retry === 'new-input' ? ' The session changed since, which resets its retries.' : '';
  return withNote(`${failed}${why} ${claimWords(thread, ctx)}.${windowCloses(thread, ctx)}`, ctx);
}

function outputDetail(
  thread: CoverageThreadRow,
  output: OutputRow | undefined,
  job: JobRow | undefined,
  reason: CoverageReason | null,
  ctx: JudgeContext,
): string {
  const parts: string[] = [];
  if (!output) {
    const when = job?.finishedAt != null ? ` ${utc(job.finishedAt)}` : '';
    parts.push(
      `Codex read this session${when} and no stage-1 output remains: it found nothing worth remembering, or the unused output was pruned after max_unused_days.`,
    );
  } else {
    const from = output.sourceUpdatedAt !== null ? ` from the session as of ${utc(output.sourceUpdatedAt)}` : '';
    parts.push(
      output.selected
        ? `Extracted${from}; part of the last successful consolidation.`
        : `Extracted${from}; not part of a consolidation yet.`,
    );
    if (output.usageCount > 0)
      parts.push(
        `Sessions cited it ${plural(output.usageCount, 'time')}${output.lastUsage !== null ? `, last on ${day(output.lastUsage)}` : ''}.`,
      );
  }
  if (job && leaseLive(job, ctx.nowSec)) parts.push(`Codex is extracting it again now (lease until ${utc(job.leaseUntil ?? 0)}).`);
  else if (reason === null && !upToDate(thread, output, job) && ctx.order.spots.has(thread.id))
    parts.push(withNote(`The session changed since its extraction, so Codex extracts it again: ${claimWords(thread, ctx)}.`, ctx));
  else if (job?.status === 'error' && job.lastError) parts.push(`A later extraction failed ("${firstLine(job.lastError)}").`);
  return parts.join(' ');
}

function detailOf(
  thread: CoverageThreadRow,
  stage: CoverageStage,
  reason: CoverageReason | null,
  retry: Stage1RetryState | null,
  ctx: JudgeContext,
): string {
  const output = ctx.outputs.get(thread.id);
  const job = ctx.jobs.get(thread.id);
  switch (stage) {
    case 'not-eligible':
      return notEligibleDetail(thread, reason ?? 'no-time', ctx.config);
    case 'waiting':
      return withNote(`Not extracted yet. ${claimWords(thread, ctx)}.${windowCloses(thread, ctx)}`, ctx);
    case 'extracting':
      return `Codex is extracting it now${job?.workerId ? ` (worker ${job.workerId})` : ''}; its lease runs until ${utc(job?.leaseUntil ?? 0)}.`;
    case 'failed':
    case 'exhausted':
      return job && retry ? failedDetail(thread, job, retry, reason, ctx) : 'The extraction failed.';
    case 'extracted':
    case 'selected':
      return outputDetail(thread, output, job, reason, ctx);
  }
}

function jobOf(job: JobRow | undefined, retry: Stage1RetryState | null): CoverageJob | null {
  if (!job) return null;
  return {
    status: job.status,
    lastError: job.lastError,
    retryAt: unixTime(job.retryAt),
    retryRemaining: job.retryRemaining,
    leaseUntil: unixTime(job.leaseUntil),
    finishedAt: unixTime(job.finishedAt),
    retryState: retry,
  };
}

function outputOf(output: OutputRow | undefined): CoverageOutput | null {
  if (!output) return null;
  return {
    sourceUpdatedAt: unixTime(output.sourceUpdatedAt),
    generatedAt: unixTime(output.generatedAt),
    rolloutSlug: output.rolloutSlug,
    selectedForPhase2: output.selected,
    usageCount: output.usageCount,
    lastUsage: unixTime(output.lastUsage),
  };
}

/** A failed or exhausted session keeps the reason phase 1 no longer picks it up: Codex will not retry it. */
const FAILED: ReadonlySet<CoverageStage> = new Set(['failed', 'exhausted']);

/** Stages whose session is not extracted and may still be: the ones whose age window matters. */
const AGING: ReadonlySet<CoverageStage> = new Set(['waiting', 'extracting', 'failed', 'exhausted']);

/**
 * The retry repair (`coverage --retry`) helps a failed extraction held back by its back-off, or one with no retries
 * left, of a session phase 1 still picks up (`planRetry` refuses the others: Codex claims them anyway, or never).
 */
function repairsOf(stage: CoverageStage, retry: Stage1RetryState | null, reason: CoverageReason | null): CoverageThread['repairs'] {
  const inWindow = reason === null || reason === 'too-recent';
  const heldBack = (stage === 'failed' && retry === 'backoff') || stage === 'exhausted';
  return heldBack && inWindow ? ['retry'] : [];
}

/** The session's row of the ledger, without where it shows in the root (presence.ts adds that). */
export function judgeThread(thread: CoverageThreadRow, ctx: JudgeContext): JudgedThread {
  const output = ctx.outputs.get(thread.id);
  const job = ctx.jobs.get(thread.id);
  const reason = notEligibleReason(thread, ctx.config, ctx.nowSec);
  const retry = job ? retryStateOf(thread, job, ctx.nowSec) : null;
  const stage = stageOf(thread, output, job, reason, retry, ctx.nowSec);
  const notExtracted = AGING.has(stage) || (stage === 'not-eligible' && (reason === 'too-recent' || reason === 'too-old'));
  return {
    threadId: thread.id,
    source: thread.source,
    sourceLabel: sourceLabel(thread.source),
    cwd: thread.cwd,
    title: thread.title,
    rolloutPath: thread.rolloutPath,
    memoryMode: thread.memoryMode,
    updatedAt: unixTime(thread.updatedAt),
    stage,
    reason: stage === 'not-eligible' || (FAILED.has(stage) && reason !== 'too-recent') ? reason : null,
    detail: detailOf(thread, stage, reason, retry, ctx),
    eligibleAt: stage === 'not-eligible' && reason === 'too-recent' ? unixTime(eligibleFrom(thread, ctx.config)) : null,
    agesOutAt: notExtracted ? unixTime(agesOutAt(thread, ctx.config)) : null,
    job: jobOf(job, retry),
    output: outputOf(output),
    repairs: repairsOf(stage, retry, reason),
  };
}
