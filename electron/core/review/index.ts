// Review core: hunks between texts, proposals with per-hunk decisions, and the history they leave (issue 4).
export { applyDecisions, computeFileHunks, computeHunks, CONTEXT_LINES, resolveFile, unresolvedConflicts, type FileOutcome } from './hunks';
export { mergeTexts } from './merge';
export { computeFileBlocks, computeReviewHunks, type BlockFile } from './review-hunks';
export { proposalFileBlocks } from './file-blocks';
export { hunksOfMerge } from './merge-hunks';
export { threeWay } from './three-way';
export { mergeTextsOf, rebaseProposal } from './rebase';
export { stalenessOf } from './stale';
export { splitLines } from './lines';
export { readDiskBase, sha256Text } from './disk-base';
export { loadFileTexts as fileTextsOf } from './proposal-rows';
export {
  createProposal,
  decisionsOf,
  getProposal,
  listProposals,
  rejectProposal,
  resultOf,
  reviseProposalFile,
  setDecisions,
  type FileDecisions,
  type NewProposal,
  type ProposalFileInput,
} from './proposals';
export {
  getHistoryEntry,
  historyDiff,
  historyEntryDiff,
  historyFileContent,
  listHistory,
  markApplied,
  recordExternalChange,
  revertEntry,
  type HistoryEntryInput,
  type HistoryFileInput,
} from './history';
