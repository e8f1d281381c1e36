// Review core: hunks between texts and proposals with per-hunk decisions (what Apply leaves behind is in history/).
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
export { loadFileTexts as fileTextsOf, pendingWithDbChange } from './proposal-rows';
export {
  agentProposalsSince,
  createProposal,
  decisionsOf,
  getProposal,
  listProposals,
  markAgentProposalSeen,
  proposalStatusOf,
  rejectProposal,
  resultOf,
  reviseProposalFile,
  setDecisions,
  type FileDecisions,
  type NewProposal,
  type ProposalFileInput,
} from './proposals';
