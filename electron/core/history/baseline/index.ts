// The live files of a memory root against Codex's git baseline, read without ever writing into `.git/`.
export { BASELINE_HUNK_CAP_BYTES, sinceBaseline } from './since-baseline';
export { GitMissing } from './git-read';
export { baselineFile } from './baseline-file';
