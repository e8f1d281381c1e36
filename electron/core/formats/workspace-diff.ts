// Parser for phase2_workspace_diff.md (generated before Phase 2): status list, fenced unified diff, truncation note.
import { group, itemAt } from '../platform/indexed';
import type { WorkspaceDiffParsed } from '../../../shared/formats';
import type { Body, ParseContext } from './context';
import { bulletOf, headingOf, isBlank } from './markdown';

export const WORKSPACE_DIFF_TITLE = 'Memory Workspace Diff';
const TRUNCATED = /^\[workspace diff truncated at (\d+) bytes\]$/;

function findHeading(ctx: ParseContext, level: number, title: string, from = 0): number {
  return ctx.lines.findIndex((text, i) => {
    if (i < from) return false;
    const h = headingOf(text);
    return h !== null && h.level === level && h.title.trim() === title;
  });
}

function readStatus(ctx: ParseContext, from: number, to: number): { status: WorkspaceDiffParsed['status']; noChanges: boolean } {
  const status: WorkspaceDiffParsed['status'] = [];
  let noChanges = false;
  for (let i = from; i < to; i++) {
    const text = itemAt(ctx.lines, i);
    if (isBlank(text)) continue;
    const b = bulletOf(text);
    if (b && b.text.trim() === 'none') {
      noChanges = true;
      continue;
    }
    const m = b ? /^(\S+)\s+(.+)$/.exec(b.text.trim()) : null;
    if (m) status.push({ label: group(m, 1), path: group(m, 2).trim(), line: i + 1, endLine: i + 1 });
    else ctx.diags.warning('format/diff-status', i + 1, i + 1, 'A status line reads "- <status> <path>" (or "- none").');
  }
  return { status, noChanges };
}

type DiffFile = WorkspaceDiffParsed['files'][number];

function readDiffFiles(lines: readonly string[], from: number, to: number): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | null = null;
  let inHunk = false;
  for (let i = from; i < to; i++) {
    const text = itemAt(lines, i);
    if (text.startsWith('diff --git ')) {
      const m = / b\/(.*)$/.exec(text);
      file = { path: m ? group(m, 1) : text.slice(11), line: i + 1, endLine: i + 1, added: 0, removed: 0 };
      files.push(file);
      inHunk = false;
      continue;
    }
    if (!file) continue;
    file.endLine = i + 1;
    if (text.startsWith('@@')) inHunk = true;
    else if (inHunk && text.startsWith('+')) file.added++;
    else if (inHunk && text.startsWith('-')) file.removed++;
  }
  return files;
}

function readDiff(ctx: ParseContext, base: Body<'workspace_diff'>, from: number): void {
  const open = ctx.lines.findIndex((text, i) => i >= from && /^```/.test(text));
  if (open < 0) {
    ctx.diags.warning('format/diff-fence', from, from, 'The "## Diff" section has no fenced ```diff block.');
    return;
  }
  const close = ctx.lines.findIndex((text, i) => i > open && text.trimEnd() === '```');
  if (close < 0)
    ctx.diags.warning('format/diff-fence', open + 1, open + 1, 'The diff block is never closed: the file was cut off or edited.');
  const end = close < 0 ? ctx.lines.length : close;
  if (end > open + 1) base.diff = { line: open + 2, endLine: end, text: ctx.lines.slice(open + 1, end).join('\n') };
  base.files = readDiffFiles(ctx.lines, open + 1, end);
  for (let i = end - 1; i > open; i--) {
    const m = TRUNCATED.exec(itemAt(ctx.lines, i).trim());
    if (!m) continue;
    base.truncated = true;
    base.truncatedAtBytes = Number(m[1]);
    ctx.diags.info(
      'codex/diff-truncated',
      i + 1,
      i + 1,
      `Codex cut this diff at ${m[1]} bytes, so the consolidation agent sees only part of the changes.`,
    );
    break;
  }
}

export function parseWorkspaceDiff(ctx: ParseContext): Body<'workspace_diff'> {
  const base: Body<'workspace_diff'> = {
    kind: 'workspace_diff',
    title: null,
    status: [],
    noChanges: false,
    diff: null,
    files: [],
    truncated: false,
    truncatedAtBytes: null,
  };
  const first = ctx.lines.findIndex((l) => !isBlank(l));
  const h = first >= 0 ? headingOf(itemAt(ctx.lines, first)) : null;
  base.title = h && h.level === 1 ? h.title.trim() : null;
  if (base.title !== WORKSPACE_DIFF_TITLE) {
    ctx.diags.warning(
      'format/diff-header',
      Math.max(1, first + 1),
      Math.max(1, first + 1),
      `Codex starts this file with "# ${WORKSPACE_DIFF_TITLE}".`,
    );
  }
  const statusAt = findHeading(ctx, 2, 'Status');
  const diffAt = findHeading(ctx, 2, 'Diff', Math.max(0, statusAt + 1));
  if (statusAt < 0) ctx.diags.warning('format/diff-header', 1, 1, 'The "## Status" section is missing.');
  else Object.assign(base, readStatus(ctx, statusAt + 1, diffAt < 0 ? ctx.lines.length : diffAt));
  if (diffAt >= 0) readDiff(ctx, base, diffAt + 1);
  else if (base.status.length > 0)
    ctx.diags.warning('format/diff-fence', statusAt + 1, statusAt + 1, 'The status lists changes but there is no "## Diff" section.');
  return base;
}
