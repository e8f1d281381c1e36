// Session rollouts: parsing, memory citations exactly as Codex reads them, the thread-id index and provenance.
export {
  canonicalThreadId,
  droppedCitationEntries,
  extractCitationBlocks,
  parseCitationEntry,
  parseMemoryCitation,
  rustTrim,
} from './citations';
export { citedTarget, resolveCitations } from './cited-targets';
export { LineSplitter, readLines } from './line-reader';
export { citedBy, collectUsage, CITABLE_KINDS, neverCited, normalizeSummaryPath, resolvePointer, type UsageOptions } from './provenance';
export { parseSessionRollout, type ParseRolloutOptions } from './rollout-parser';
export { listSessionFiles, threadIdFromRolloutPath, type SessionFile } from './session-files';
export { buildSessionIndex, locateSession, readFirstLine, type SessionIndexOptions } from './session-index';
export { clearSessionScanCache, scanAllSessions, type SessionScan } from './session-scan';
