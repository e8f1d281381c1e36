// Codex's phase 1 rules, read-only: which sessions its startup claim considers (`claim_stage1_jobs_for_startup`), which
// of those it skips as up to date, which it may claim (`try_claim_stage1_job`), and in which order (docs/codex-facts.md,
// "Phase 1 claim").
import type { MemoriesConfig } from '../../../shared/domain';
import { PHASE1_THREAD_SCAN_LIMIT } from '../codex/constants';
import { claimable, notEligibleReason, upToDate } from '../codex-db/phase1-rules';
import type { CoverageThreadRow, JobRow, OutputRow } from './read';

export {
  agesOutAt,
  claimable,
  eligibleFrom,
  leaseLive,
  newInput,
  notEligibleReason,
  retryStateOf,
  upToDate,
  windowBounds,
} from '../codex-db/phase1-rules';

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
