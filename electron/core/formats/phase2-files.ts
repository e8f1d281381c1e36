// The files Codex's Phase 2 renders from stage-1 rows: rollout summary names and headers, and raw_memories.md (v1).
import { rustTrim } from '../codex/rust-str';
import { fileTimestamp, rolloutShortHash, uuidV7Millis } from './names';

const ROLLOUT_SLUG_MAX_LEN = 60;

/** RFC 3339 with `+00:00`, as chrono's `to_rfc3339()` prints whole-second UTC times. */
export function rfc3339(seconds: number): string {
  return `${new Date(seconds * 1000).toISOString().slice(0, 19)}+00:00`;
}

/** Codex's slug sanitisation: ASCII alnum lowercased, anything else `_`, cut at 60, trailing `_` trimmed. */
export function sanitizeRolloutSlug(raw: string): string {
  let slug = '';
  for (const ch of raw) {
    if (slug.length >= ROLLOUT_SLUG_MAX_LEN) break;
    slug += /^[A-Za-z0-9]$/.test(ch) ? ch.toLowerCase() : '_';
  }
  return slug.replace(/_+$/, '');
}

/** Codex's rollout summary stem (`rollout_summary_file_stem`): `<ts>-<hash4>[-<slug>]`. */
export function rolloutSummaryStem(threadId: string, sourceUpdatedAtSec: number, rolloutSlug: string | null): string {
  const ms = uuidV7Millis(threadId) ?? sourceUpdatedAtSec * 1000;
  const prefix = `${fileTimestamp(ms)}-${rolloutShortHash(threadId)}`;
  if (rolloutSlug === null) return prefix;
  const slug = sanitizeRolloutSlug(rolloutSlug);
  return slug === '' ? prefix : `${prefix}-${slug}`;
}

/** What Codex needs of one selected stage-1 row to render its files. */
export interface Phase2FileRow {
  threadId: string;
  sourceUpdatedAt: number;
  rawMemory: string;
  rolloutSummary: string;
  rolloutSlug: string | null;
  rolloutPath: string | null;
  cwd: string | null;
  gitBranch: string | null;
}

export const rolloutSummaryFileName = (row: Pick<Phase2FileRow, 'threadId' | 'sourceUpdatedAt' | 'rolloutSlug'>): string =>
  `${rolloutSummaryStem(row.threadId, row.sourceUpdatedAt, row.rolloutSlug)}.md`;

/** `rollout_summaries/<stem>.md` exactly as `write_rollout_summary_for_thread` writes it (a missing cwd or path prints empty). */
export function renderRolloutSummaryFile(row: Phase2FileRow): string {
  let body = `thread_id: ${row.threadId}\n`;
  body += `updated_at: ${rfc3339(row.sourceUpdatedAt)}\n`;
  body += `rollout_path: ${row.rolloutPath ?? ''}\n`;
  body += `cwd: ${row.cwd ?? ''}\n`;
  if (row.gitBranch !== null) body += `git_branch: ${row.gitBranch}\n`;
  return `${body}\n${row.rolloutSummary}\n`;
}

/** `raw_memories.md` as `rebuild_raw_memories_file` renders it, rows in thread_id ascending order. */
export function renderRawMemoriesFile(rows: readonly Phase2FileRow[]): string {
  const title = '# Raw Memories\n\n';
  if (rows.length === 0) return `${title}No raw memories yet.\n`;
  const parts: string[] = [title];
  parts.push('Merged stage-1 raw memories (stable ascending thread-id order):\n\n');
  const sorted = rows.slice().sort((a, b) => (a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0));
  for (const row of sorted) {
    parts.push(
      `## Thread \`${row.threadId}\`\n`,
      `updated_at: ${rfc3339(row.sourceUpdatedAt)}\n`,
      `cwd: ${row.cwd ?? ''}\n`,
      `rollout_path: ${row.rolloutPath ?? ''}\n`,
      `rollout_summary_file: ${rolloutSummaryFileName(row)}\n`,
      '\n',
      rustTrim(row.rawMemory),
      '\n\n',
    );
  }
  return parts.join('');
}
