// The coverage ledger: every session of Codex's thread catalog and how far Codex's memory pipeline took it (read only).
export { buildCoverage, coverageTask } from './build';
export { sourceLabel } from './source-label';
