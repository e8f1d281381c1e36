// The Codex-DB change kinds a proposal may carry (which DB each version's memory tables live in: codex/constants.ts).
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
