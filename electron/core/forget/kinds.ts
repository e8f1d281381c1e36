// The Codex-DB change kinds a proposal may carry (which DB each version's memory tables live in: codex/constants.ts).
import type { DbChange } from '../../../shared/review';
import { JOB_KINDS } from '../codex/constants';

/** Stored in `proposal_db_changes.sql_kind`: a closed set, so a stored row can never name arbitrary SQL. */
export const FORGET_KINDS = {
  deleteStage1: 'forget.delete-stage1-output',
  deleteStage1Job: 'forget.delete-stage1-job',
  enqueueConsolidation: 'forget.enqueue-consolidation',
  disableThread: 'forget.disable-thread-memory',
  stage1JobKind: JOB_KINDS.stage1,
} as const;

/** The import's one DB change: Codex's `enqueue_global_consolidation` for a root it wrote to (no parameters but the DB). */
export const IMPORT_KINDS = {
  enqueueConsolidation: 'import.enqueue-consolidation',
} as const;

/** A repair of one Codex `jobs` row (a compare-and-swap, no lease): its params are checked where it runs (repair.ts). */
export const REPAIR_KINDS = { setJob: 'repair.set-job' } as const;

export function isRepairChange(change: Pick<DbChange, 'sqlKind'>): boolean {
  return change.sqlKind === REPAIR_KINDS.setJob;
}
