// The Coverage view's pure parts: stage and reason labels, the filter (chips, text) and the sort of 4,000+ sessions.
import type { CoverageReason, CoverageStage, CoverageThread } from '../../../shared/coverage';
import { CoverageReasonSchema, CoverageStageSchema } from '../../../shared/coverage';

/** The pipeline's order, first stage first: the summary bar and the stage sort follow it. */
export const stages: readonly CoverageStage[] = CoverageStageSchema.options;
export const reasons: readonly CoverageReason[] = CoverageReasonSchema.options;

export const stageLabels: Record<CoverageStage, string> = {
  'not-eligible': 'Not eligible',
  waiting: 'Waiting',
  extracting: 'Extracting',
  failed: 'Failed',
  exhausted: 'Exhausted',
  extracted: 'Extracted',
  selected: 'Selected for Phase 2',
};

/** The table's badges: the same words, short enough for the column. */
export const stageShortLabels: Record<CoverageStage, string> = { ...stageLabels, selected: 'Selected' };

/** What each stage means, for the chips' tooltips. */
export const stageHelp: Record<CoverageStage, string> = {
  'not-eligible': 'Phase 1 does not pick these sessions up as they are now (the reason says why)',
  waiting: "Inside Phase 1's window, not yet extracted: claimable at a Codex session start",
  extracting: 'A stage-1 job runs under a live lease',
  failed: 'The last extraction failed; Codex retries it while the session stays in its window (the sentence says when)',
  exhausted: 'The extraction failed with no retries left: Codex never tries again unless the session changes',
  extracted: 'Extracted (a stage-1 output, or a success that kept nothing), not (yet) part of a consolidation',
  selected: 'The stage-1 output was part of the last successful consolidation',
};

/** Badge colours: lost and stuck sessions stand out, done ones read as fine. */
export const stageTone: Record<CoverageStage, string> = {
  'not-eligible': 'badge-muted',
  waiting: 'badge-info',
  extracting: 'badge-info',
  failed: 'badge-warn',
  exhausted: 'badge-error',
  extracted: 'badge-ok',
  selected: 'badge-ok',
};

export const reasonLabels: Record<CoverageReason, string> = {
  source: 'not interactive (or no user message)',
  'memory-disabled': 'memory off',
  polluted: 'polluted',
  archived: 'archived',
  'too-recent': 'too recent',
  'too-old': 'too old',
  'no-time': 'no time',
};

export const reasonHelp: Record<CoverageReason, string> = {
  source: 'Not an interactive session (codex exec, a sub-agent, Atlas or ChatGPT), or one with no user message',
  'memory-disabled': "The thread's memory_mode is disabled",
  polluted: "The thread's memory_mode is polluted (external context)",
  archived: 'The thread is archived',
  'too-recent': 'Idle for less than min_rollout_idle_hours: eligible later',
  'too-old': 'Last active before max_rollout_age_days: never extracted now',
  'no-time': 'The thread has no usable updated_at',
};

/** The "since" choices: every session, or those active in the last N days. */
export const sinceChoices: ReadonlyArray<{ days: number | null; label: string }> = [
  { days: null, label: 'All' },
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
];

/** A chip filter: one stage, or the not-eligible sessions of one reason; null shows every session. */
export type StageFilter = { stage: CoverageStage; reason: CoverageReason | null } | null;

export type CoverageSortKey = 'updated' | 'stage';
export interface CoverageSort {
  key: CoverageSortKey;
  direction: 'asc' | 'desc';
}

export const initialSort: CoverageSort = { key: 'updated', direction: 'desc' };

/** Newest first for dates; the pipeline's order (not eligible first) for stages. */
export const defaultDirection: Record<CoverageSortKey, 'asc' | 'desc'> = { updated: 'desc', stage: 'asc' };

export function sameFilter(a: StageFilter, b: StageFilter): boolean {
  return a?.stage === b?.stage && a?.reason === b?.reason;
}

function matchesText(thread: CoverageThread, needle: string): boolean {
  return [thread.threadId, thread.cwd, thread.title, thread.job?.lastError].some((field) => field?.toLowerCase().includes(needle));
}

/** Case-insensitive text on id, cwd, title and last error, within the chip's stage (and reason). */
export function filterThreads(threads: readonly CoverageThread[], filter: StageFilter, text: string): CoverageThread[] {
  const needle = text.trim().toLowerCase();
  return threads.filter((thread) => {
    if (filter && (thread.stage !== filter.stage || (filter.reason !== null && thread.reason !== filter.reason))) return false;
    return needle === '' || matchesText(thread, needle);
  });
}

const stageRank = new Map(stages.map((stage, index) => [stage, index]));

/** Sessions without a time go last either way; ties fall back to the newest, then the id, so the order is stable. */
export function sortThreads(threads: readonly CoverageThread[], sort: CoverageSort): CoverageThread[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const updated = (t: CoverageThread) => t.updatedAt?.seconds ?? null;
  return [...threads].sort((a, b) => {
    if (sort.key === 'stage') {
      const order = ((stageRank.get(a.stage) ?? 0) - (stageRank.get(b.stage) ?? 0)) * sign;
      if (order !== 0) return order;
    }
    const ua = updated(a);
    const ub = updated(b);
    if (ua === null || ub === null) {
      if (ua !== ub) return ua === null ? 1 : -1;
    } else if (ua !== ub) return (ub - ua) * (sort.key === 'updated' ? -sign : 1);
    return a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0;
  });
}

/** The total of every stage (the "All" chip). */
export function totalOf(totals: Readonly<Record<CoverageStage, number>>): number {
  return stages.reduce((sum, stage) => sum + (totals[stage] ?? 0), 0);
}
