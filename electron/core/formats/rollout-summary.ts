// Parser for rollout_summaries/<stem>.md: the plain `key: value` header, the title, sections and v1 task outcomes.
import { group, itemAt } from '../platform/indexed';
import type { RolloutSummaryParsed } from '../../../shared/formats';
import type { Body, ParseContext } from './context';
import { hasOwn, reportUnclosedFences, setOwn } from './context';
import { buildOutline, firstHeading, isBlank } from './markdown';
import { expectedStemParts, ROLLOUT_SUMMARY_NAME } from './names';

const HEADER_LINE = /^([a-z_][a-z0-9_]*): ?(.*)$/;
const REQUIRED_HEADER = ['thread_id', 'updated_at', 'rollout_path', 'cwd'] as const;
const KNOWN_HEADER = new Set<string>([...REQUIRED_HEADER, 'git_branch']);

function readHeader(ctx: ParseContext): { fields: Record<string, string>; end: number } {
  const fields: Record<string, string> = {};
  let i = 0;
  for (; i < ctx.lines.length; i++) {
    const m = HEADER_LINE.exec(itemAt(ctx.lines, i));
    if (!m) break;
    const key = group(m, 1);
    if (!hasOwn(fields, key)) setOwn(fields, key, group(m, 2).trim());
    if (!KNOWN_HEADER.has(key)) {
      ctx.diags.info(
        'format/summary-header',
        i + 1,
        i + 1,
        `"${key}:" is not a header key Codex writes (thread_id, updated_at, rollout_path, cwd, git_branch).`,
      );
    }
  }
  return { fields, end: i };
}

function checkHeader(ctx: ParseContext, fields: Record<string, string>, end: number): void {
  const missing = REQUIRED_HEADER.filter((k) => !hasOwn(fields, k));
  if (end === 0) {
    ctx.diags.warning(
      'format/summary-header',
      1,
      1,
      'Codex starts every rollout summary with "thread_id:", "updated_at:", "rollout_path:" and "cwd:" lines; this file has no such header.',
    );
  } else if (missing.length > 0) {
    ctx.diags.warning('format/summary-header', 1, end, `The header lacks ${missing.map((k) => `"${k}:"`).join(', ')}.`);
  }
  if (end > 0 && end < ctx.lines.length && !isBlank(itemAt(ctx.lines, end))) {
    ctx.diags.info('format/summary-header', end + 1, end + 1, 'Codex separates the header from the summary with a blank line.');
  }
}

function checkFileName(ctx: ParseContext, threadId: string | null, updatedAt: string | null): void {
  const name = ctx.fileName;
  if (!name || !name.endsWith('.md')) return;
  const m = ROLLOUT_SUMMARY_NAME.exec(name);
  const prune =
    'Current Codex names these files <YYYY-MM-DDTHH-MM-SS>-<4 chars>[-<slug>].md from the thread id and deletes files outside its selection at the next sync (older Codex versions used other names).';
  if (!m) {
    ctx.diags.info('format/summary-file-name', 1, 1, `"${name}" is not a name current Codex derives. ${prune}`);
    return;
  }
  if (!threadId) return;
  const expected = expectedStemParts(threadId, updatedAt);
  if (m[2] !== expected.hash || (expected.timestamp !== null && m[1] !== expected.timestamp)) {
    const want = `${expected.timestamp ?? m[1]}-${expected.hash}`;
    ctx.diags.info(
      'format/summary-file-name',
      1,
      1,
      `For thread ${threadId} Codex would name this file "${want}….md", not "${name}". ${prune}`,
    );
  }
}

function tasksOf(ctx: ParseContext, sections: RolloutSummaryParsed['sections']): RolloutSummaryParsed['tasks'] {
  const tasks: RolloutSummaryParsed['tasks'] = [];
  for (const s of sections) {
    const m = s.level === 2 ? /^Task\s+(\d+)\s*:\s*(.*)$/.exec(s.title.trim()) : null;
    if (!m) continue;
    let outcome: string | null = null;
    for (let l = s.line + 1; l <= s.endLine && outcome === null; l++) {
      const o = /^Outcome:\s*(.*)$/.exec(itemAt(ctx.lines, l - 1).trim());
      if (o) outcome = group(o, 1).trim();
    }
    tasks.push({ number: Number(m[1]), title: group(m, 2).trim(), outcome, line: s.line, endLine: s.endLine });
  }
  return tasks;
}

export function parseRolloutSummary(ctx: ParseContext): Body<'rollout_summary'> {
  const scan = ctx.fences();
  reportUnclosedFences(ctx, scan);
  const { fields, end } = readHeader(ctx);
  checkHeader(ctx, fields, end);
  const header: RolloutSummaryParsed['header'] = {
    threadId: fields.thread_id ?? null,
    updatedAt: fields.updated_at ?? null,
    rolloutPath: fields.rollout_path ?? null,
    cwd: fields.cwd ?? null,
  };
  if (hasOwn(fields, 'git_branch')) header.gitBranch = fields.git_branch;
  checkFileName(ctx, header.threadId, header.updatedAt);
  const title = firstHeading(ctx.lines, scan.mask, 1, end + 1);
  if (!title && ctx.version !== 'v2') {
    const first = ctx.lines.findIndex((l, i) => i >= end && !isBlank(l));
    const at = first >= 0 ? first + 1 : 1;
    ctx.diags.info('format/summary-title', at, at, 'A v1 rollout summary starts with a "# <one-sentence summary>" title.');
  }
  const sections = buildOutline(ctx.lines, scan.mask, end + 1);
  return {
    kind: 'rollout_summary',
    fileName: ctx.fileName,
    header,
    headerFields: fields,
    headerRange: end > 0 ? { line: 1, endLine: end } : null,
    title,
    sections,
    tasks: tasksOf(ctx, sections),
  };
}
