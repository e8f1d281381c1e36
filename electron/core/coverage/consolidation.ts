// The version's global consolidation job (`memory_consolidate_global`) and whether it is stuck, by Codex's claim rules
// (docs/codex-facts.md, "Phase 2 lease").
import type { CoverageConsolidation } from '../../../shared/coverage';
import type { MemoryVersion } from '../../../shared/domain';
import type { GlobalJob } from '../../../shared/health';
import { PHASE2_COOLDOWN_SECONDS } from '../codex/constants';
import { firstLine, utc } from './words';

type State = CoverageConsolidation['state'];

/** Codex's refusals in its order, a live lease first: running, running under an ended lease, back-off, cooldown. */
function stateOf(job: GlobalJob, nowSec: number): State {
  const lease = job.leaseUntil?.seconds ?? null;
  if (job.status === 'running') return lease !== null && lease > nowSec ? 'running' : 'running-dead';
  if (job.retryAt && job.retryAt.seconds > nowSec) return 'backoff';
  if (job.lastError === null && job.finishedAt && job.finishedAt.seconds + PHASE2_COOLDOWN_SECONDS > nowSec) return 'cooldown';
  return job.status === 'done' ? 'done' : 'claimable';
}

const at = (t: { seconds: number } | null) => (t ? utc(t.seconds) : 'an unknown time');

function detailOf(state: State, job: GlobalJob, version: MemoryVersion): string {
  const error = job.lastError ? ` ("${firstLine(job.lastError)}")` : '';
  switch (state) {
    case 'running':
      return `A ${version} consolidation is running${job.workerId ? ` (worker ${job.workerId})` : ''}; its lease runs until ${at(job.leaseUntil)}.`;
    case 'running-dead':
      return `The job is still "running" but its worker's lease ended ${at(job.leaseUntil)}: the consolidation died part-way. Codex takes it over at a session start unless a back-off or its 6-hour pause after a success holds it; a reclaim sets it pending now.`;
    case 'backoff':
      return `The last consolidation failed${error}; Codex waits until ${at(job.retryAt)} before it tries again (a reclaim lets it try at its next session start).`;
    case 'cooldown':
      return `The last consolidation succeeded ${at(job.finishedAt)}; Codex waits 6 hours after a success, until ${at(job.cooldownEndsAt)}, before the next one.`;
    case 'done':
      return `The last consolidation succeeded ${at(job.finishedAt)} and nothing new was queued since; Codex consolidates again at a session start when its workspace has changes.`;
    case 'claimable':
      return job.status === 'pending'
        ? `New extractions are queued (status "pending"): Codex consolidates them at its next root session start.`
        : `The job is "${job.status}"${error} and nothing holds it back: Codex consolidates at its next root session start.`;
    case 'absent':
      return '';
  }
}

/** The consolidation job's state; `absent` when Codex has never created it (or its DB could not be read). */
export function consolidationOf(job: GlobalJob | null, version: MemoryVersion, nowSec: number): CoverageConsolidation {
  if (!job) {
    return {
      status: null,
      state: 'absent',
      detail: `Codex has no ${version} consolidation job yet: its first session start after an extraction creates and claims it.`,
      leaseUntil: null,
      retryAt: null,
      finishedAt: null,
      lastError: null,
      reclaimable: false,
    };
  }
  const state = stateOf(job, nowSec);
  return {
    status: job.status,
    state,
    detail: detailOf(state, job, version),
    leaseUntil: job.leaseUntil,
    retryAt: job.retryAt,
    finishedAt: job.finishedAt,
    lastError: job.lastError,
    reclaimable: state === 'running-dead' || state === 'backoff',
  };
}
