// History, the one place that says what changed: applied proposals and Codex's own edits (entries, revert), and the
// live files against Codex's git baseline (its last consolidation).
export {
  getHistoryEntry,
  historyDiff,
  historyEntryDiff,
  historyFileContent,
  listHistory,
  markApplied,
  maskHistoryFile,
  maskHistoryFileAsync,
  recordExternalChange,
  recordExternalChangeAsync,
  revertEntry,
  type HistoryEntryInput,
  type HistoryFileInput,
  type MaskedHistoryFile,
} from './entries';
export {
  createExternalHistory,
  SNAPSHOT_FILE_CAP_BYTES,
  SNAPSHOT_TOTAL_CAP_BYTES,
  type ExternalHistory,
  type ExternalHistoryOptions,
  type SnapshotState,
} from './external';
export { createOwnWrites, type OwnWrites } from './own-writes';
export { BASELINE_HUNK_CAP_BYTES, baselineFile, GitMissing, sinceBaseline } from './baseline';
