// The catalogue of every diagnostic rule the format parsers emit, with its usual severity and what it checks.
import type { ParsedKind } from '../../../shared/formats';

export interface FormatRule {
  severity: 'error' | 'warning' | 'info';
  kinds: readonly ParsedKind[];
  summary: string;
  /** True when the diagnostic carries a mechanical fix. */
  fixable?: boolean;
}

const md: ParsedKind[] = [
  'memory_summary',
  'memory_md',
  'raw_memories',
  'rollout_summary',
  'skill',
  'ad_hoc_note',
  'extension_instructions',
];

export const FORMAT_RULES = {
  'codex/summary-first-line': {
    severity: 'error',
    kinds: ['memory_summary'],
    summary: 'The first line must be exactly "v1" (Codex rejects the summary otherwise).',
    fixable: true,
  },
  'codex/ad-hoc-note-name': {
    severity: 'warning',
    kinds: ['ad_hoc_note'],
    summary: 'Note names follow YYYY-MM-DDTHH-MM-SS-<slug>.md, 24–128 characters.',
  },
  'codex/diff-truncated': { severity: 'info', kinds: ['workspace_diff'], summary: 'Codex cut the workspace diff at 4 MiB.' },
  'template/missing-section': {
    severity: 'warning',
    kinds: ['memory_summary'],
    summary: 'A required summary heading is missing (an error for v2, whose validator rejects it).',
    fixable: true,
  },
  'template/section-order': {
    severity: 'warning',
    kinds: ['memory_summary', 'memory_md'],
    summary: 'Sections are out of the template order.',
  },
  'template/unknown-section': {
    severity: 'info',
    kinds: ['memory_summary', 'memory_md'],
    summary: 'A heading the template does not define.',
  },
  'template/dash-bullets': {
    severity: 'warning',
    kinds: ['memory_summary', 'memory_md'],
    summary: 'Bullets use "-", never "*" or "+".',
    fixable: true,
  },
  'template/no-bold': { severity: 'info', kinds: ['memory_md'], summary: 'No bold text in MEMORY.md.', fixable: true },
  'template/date-heading': {
    severity: 'warning',
    kinds: ['memory_summary'],
    summary: 'Recent groups are "#### YYYY-MM-DD" under a "### <scope>".',
  },
  'template/pointer-format': {
    severity: 'warning',
    kinds: ['memory_summary'],
    summary: 'Pointer lines read "- rollout_summaries/<file>.md — <sentence>; thread_id=<id>".',
  },
  'template/block-heading': { severity: 'warning', kinds: ['memory_md'], summary: 'Level-1 headings must be "# Task Group: <name>".' },
  'template/content-before-block': { severity: 'warning', kinds: ['memory_md'], summary: 'Text before the first block.' },
  'template/block-header': { severity: 'warning', kinds: ['memory_md'], summary: 'A block needs "scope:" and "applies_to:" lines.' },
  'template/applies-to': { severity: 'warning', kinds: ['memory_md'], summary: '"applies_to:" reads "cwd=<…>; reuse_rule=<…>".' },
  'template/placeholder-group': { severity: 'warning', kinds: ['memory_md'], summary: 'Task-group names must not be placeholders.' },
  'template/block-tasks': { severity: 'warning', kinds: ['memory_md'], summary: 'A block needs at least one "## Task <n>:" section.' },
  'template/task-heading': {
    severity: 'warning',
    kinds: ['memory_md'],
    summary: 'Task headings read "## Task <n>: <description, outcome>".',
  },
  'template/task-sections': { severity: 'warning', kinds: ['memory_md'], summary: 'A task lists its files and its keywords.' },
  'template/task-numbering': { severity: 'info', kinds: ['memory_md'], summary: 'Tasks of a block are numbered 1, 2, 3…' },
  'template/task-ref': { severity: 'warning', kinds: ['memory_md'], summary: '"[Task n]" must name a task of the block.' },
  'template/file-bullet': {
    severity: 'warning',
    kinds: ['memory_md'],
    summary: 'File bullets read "- rollout_summaries/<file>.md (k=v, …)" or "- extensions/<…>.md (…)".',
  },
  'template/keywords-format': { severity: 'warning', kinds: ['memory_md'], summary: '"### keywords" holds one comma-separated bullet.' },
  'format/unclosed-fence': { severity: 'warning', kinds: md, summary: 'A code fence is never closed.' },
  'format/raw-header': { severity: 'warning', kinds: ['raw_memories'], summary: 'raw_memories.md starts with "# Raw Memories".' },
  'format/thread-heading': { severity: 'warning', kinds: ['raw_memories'], summary: 'Thread headings read "## Thread `<id>`".' },
  'format/thread-fields': {
    severity: 'warning',
    kinds: ['raw_memories'],
    summary: 'A thread has updated_at, cwd, rollout_path and rollout_summary_file lines.',
  },
  'format/front-matter': {
    severity: 'warning',
    kinds: ['raw_memories', 'skill'],
    summary: 'Front matter is missing, unclosed or unreadable.',
  },
  'format/task-outcome': { severity: 'warning', kinds: ['raw_memories'], summary: 'task_outcome is success, partial, fail or uncertain.' },
  'format/thread-order': { severity: 'info', kinds: ['raw_memories'], summary: 'Threads are in ascending thread-id order.' },
  'format/duplicate-thread': { severity: 'warning', kinds: ['raw_memories'], summary: 'A thread appears twice.' },
  'format/summary-header': {
    severity: 'warning',
    kinds: ['rollout_summary'],
    summary: 'The thread_id/updated_at/rollout_path/cwd header.',
  },
  'format/summary-file-name': {
    severity: 'info',
    kinds: ['rollout_summary'],
    summary: 'The file name is the one Codex derives from the thread id.',
  },
  'format/summary-title': { severity: 'info', kinds: ['rollout_summary'], summary: 'A v1 summary has a "# <sentence>" title.' },
  'format/skill-name': {
    severity: 'warning',
    kinds: ['skill'],
    summary: 'name: lowercase letters, digits, hyphens, ≤ 64, same as the folder.',
  },
  'format/skill-description': { severity: 'warning', kinds: ['skill'], summary: 'A skill has a description.' },
  'format/skill-unknown-key': { severity: 'info', kinds: ['skill'], summary: 'A front-matter key the template does not name.' },
  'format/skill-length': { severity: 'info', kinds: ['skill'], summary: 'SKILL.md stays under 500 lines.' },
  'format/empty-note': { severity: 'warning', kinds: ['ad_hoc_note'], summary: 'The note is empty.' },
  'format/empty-file': { severity: 'warning', kinds: ['extension_instructions'], summary: 'The instructions are empty.' },
  'format/invalid-json': { severity: 'error', kinds: ['extension_manifest', 'extension_scope'], summary: 'Not valid JSON.' },
  'format/manifest-shape': {
    severity: 'error',
    kinds: ['extension_manifest'],
    summary: '{"version": 1, "resources": {<id>: {targetFileName, contentSha256}}}.',
  },
  'format/manifest-target': { severity: 'warning', kinds: ['extension_manifest'], summary: 'Targets are unique flat .md names.' },
  'format/manifest-hash': { severity: 'info', kinds: ['extension_manifest'], summary: 'contentSha256 looks like a SHA-256 hex digest.' },
  'format/scope-shape': { severity: 'error', kinds: ['extension_scope'], summary: 'scope.json is {"cwd": "<absolute path>"}.' },
  'format/scope-compact': { severity: 'info', kinds: ['extension_scope'], summary: 'Codex writes scope.json compactly.' },
  'format/diff-header': {
    severity: 'warning',
    kinds: ['workspace_diff'],
    summary: 'The "# Memory Workspace Diff" title and "## Status" section.',
  },
  'format/diff-status': { severity: 'warning', kinds: ['workspace_diff'], summary: 'Status lines read "- <status> <path>".' },
  'format/diff-fence': { severity: 'warning', kinds: ['workspace_diff'], summary: 'The diff is one closed ```diff fence.' },
  'format/invalid-utf8': { severity: 'warning', kinds: [], summary: 'The file is not valid UTF-8 (reading from disk only).' },
  'format/parser-error': { severity: 'error', kinds: [], summary: 'Internal: a parser failed; the file is shown as plain text.' },
  'claude/index-limit': {
    severity: 'warning',
    kinds: ['claude_memory_index'],
    summary: 'Claude Code loads only the first 200 lines / 25 KiB of MEMORY.md.',
  },
  'claude/index-no-entries': { severity: 'info', kinds: ['claude_memory_index'], summary: 'The index points to no topic file.' },
  'claude/front-matter': { severity: 'warning', kinds: ['claude_memory_topic'], summary: 'A topic file has front matter.' },
  'claude/topic-type': { severity: 'warning', kinds: ['claude_memory_topic'], summary: 'type is user, feedback, project or reference.' },
  'claude/topic-fields': { severity: 'info', kinds: ['claude_memory_topic'], summary: 'A topic file has name and description.' },
} as const satisfies Record<string, FormatRule>;

export type FormatRuleId = keyof typeof FORMAT_RULES;
