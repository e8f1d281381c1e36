// Parser for memory_summary.md (v1 rich index and v2 pointer summary): sections, scopes, pointers, topics, rules.
import type { Section } from '../../../shared/formats';
import type { Body, ParseContext } from './context';
import { reportUnclosedFences } from './context';
import { buildOutline } from './markdown';
import { checkDashBullets } from './style';
import { parseEntries } from './summary-entries';

/** The four headings, in this order, that the template requires and Codex's v2 validator checks. */
export const REQUIRED_SUMMARY_SECTIONS = ['User Profile', 'User preferences', 'General Tips', "What's in Memory"] as const;
const WHATS_IN_MEMORY = "What's in Memory";

/** Codex's first line: the text up to the first `\n`, minus one trailing `\r` (Rust `str::lines`); null when empty. */
export function codexFirstLine(text: string): string | null {
  if (text === '') return null;
  const nl = text.indexOf('\n');
  const first = nl < 0 ? text : text.slice(0, nl);
  return first.endsWith('\r') ? first.slice(0, -1) : first;
}

function checkFirstLine(ctx: ParseContext): boolean {
  const first = codexFirstLine(ctx.text);
  if (first === 'v1') return true;
  const line1 = ctx.lines[0];
  const why =
    'Codex requires the first line of memory_summary.md to be exactly "v1"; otherwise the consolidation is rejected and the summary regenerated from scratch.';
  if (ctx.src.bom && line1 === 'v1') {
    ctx.diags.error(
      'codex/summary-first-line',
      1,
      1,
      `${why} This file starts with a byte-order mark before "v1": save it as UTF-8 without BOM.`,
    );
  } else if (line1 === 'v1') {
    ctx.diags.error(
      'codex/summary-first-line',
      1,
      1,
      `${why} This file uses lone CR line endings, so Codex reads the whole file as its first line: use LF line endings.`,
    );
  } else if (line1 !== undefined && /^\s*v\d+\s*$/i.test(line1)) {
    ctx.diags.error('codex/summary-first-line', 1, 1, `${why} Found "${line1}".`, {
      description: 'Replace the first line with "v1"',
      edits: [{ line: 1, endLine: 1, text: 'v1' }],
    });
  } else {
    ctx.diags.error(
      'codex/summary-first-line',
      1,
      1,
      `${why} ${line1 === undefined ? 'The file is empty.' : 'The "v1" line is missing.'}`,
      {
        description: 'Insert "v1" as the first line',
        edits: [{ line: 1, endLine: 0, text: 'v1' }],
      },
    );
  }
  return false;
}

/** First line (1-based) whose trimmed text is exactly `## <title>`, as Codex's validator looks for it. */
function findRequired(lines: readonly string[], title: string): number {
  const wanted = `## ${title}`;
  return lines.findIndex((l) => l.trim() === wanted) + 1;
}

function checkSections(ctx: ParseContext, sections: Section[]): void {
  const found: Array<[string, number]> = [];
  for (const title of REQUIRED_SUMMARY_SECTIONS) {
    const at = findRequired(ctx.lines, title);
    if (at > 0) {
      found.push([title, at]);
      continue;
    }
    const near = sections.find((s) => s.level <= 3 && s.title.trim().toLowerCase() === title.toLowerCase());
    const severity = ctx.version === 'v2' ? 'error' : 'warning';
    const why = ctx.version === 'v2' ? "Codex's v2 validator rejects a summary without it." : 'The consolidation template requires it.';
    if (near) {
      ctx.diags.add(
        severity,
        'template/missing-section',
        near.line,
        near.line,
        `The heading must read exactly "## ${title}" (found "${ctx.lines[near.line - 1]?.trim()}"). ${why}`,
        {
          description: `Rename the heading to "## ${title}"`,
          edits: [{ line: near.line, endLine: near.line, text: `## ${title}` }],
        },
      );
    } else {
      ctx.diags.add(severity, 'template/missing-section', 1, 1, `The section "## ${title}" is missing. ${why}`);
    }
  }
  for (const [k, [title, at]] of found.entries()) {
    const prev = found[k - 1];
    if (prev === undefined) continue;
    const [prevTitle, prevAt] = prev;
    if (at < prevAt) {
      ctx.diags.warning(
        'template/section-order',
        at,
        at,
        `"## ${title}" comes before "## ${prevTitle}"; the template orders the sections ${REQUIRED_SUMMARY_SECTIONS.map((t) => `"${t}"`).join(', ')}.`,
      );
    }
  }
  const known = new Set<string>(REQUIRED_SUMMARY_SECTIONS);
  for (const s of sections) {
    if (s.level > 2 || known.has(s.title.trim())) continue;
    if (REQUIRED_SUMMARY_SECTIONS.some((t) => t.toLowerCase() === s.title.trim().toLowerCase())) continue;
    ctx.diags.info(
      'template/unknown-section',
      s.line,
      s.line,
      `"${s.title}" is not one of the summary's sections (${REQUIRED_SUMMARY_SECTIONS.join(', ')}); the read path injects it like the rest.`,
    );
  }
}

export function parseMemorySummary(ctx: ParseContext): Body<'memory_summary'> {
  const scan = ctx.fences();
  reportUnclosedFences(ctx, scan);
  const firstLineOk = checkFirstLine(ctx);
  const sections = buildOutline(ctx.lines, scan.mask);
  checkSections(ctx, sections);
  checkDashBullets(ctx, scan.mask);
  const wim = sections.find((s) => s.level === 2 && s.title.trim() === WHATS_IN_MEMORY);
  const entries = wim
    ? parseEntries(ctx, scan.mask, wim.line + 1, wim.endLine)
    : { scopes: [], pointers: [], topics: [], olderTopics: null };
  const style =
    entries.pointers.length > 0 ? (entries.topics.length > 0 ? 'mixed' : 'pointers') : entries.topics.length > 0 ? 'topics' : 'empty';
  return {
    kind: 'memory_summary',
    version: ctx.version,
    firstLineOk,
    style,
    sections,
    olderTopics: entries.olderTopics,
    scopes: entries.scopes,
    pointers: entries.pointers,
    topics: entries.topics,
  };
}
