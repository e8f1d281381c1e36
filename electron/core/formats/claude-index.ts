// Parser for a Claude Code project's memory index (memory/MEMORY.md): pointers to topic files and Claude's load limits.
import { group } from '../platform/indexed';
import { appendAll } from '../platform/append';
import type { ClaudeIndexEntry } from '../../../shared/formats';
import type { Body, ParseContext } from './context';
import { buildOutline, firstHeading } from './markdown';

/** Claude Code loads only this much of MEMORY.md into a session (docs/codex-facts.md, Claude Code and Cursor on disk). */
export const CLAUDE_INDEX_MAX_LINES = 200;
export const CLAUDE_INDEX_MAX_BYTES = 25 * 1024;

const LINK = /\[([^\]]*)\]\(\s*(?:<([^>\n]*)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g;
const WIKI = /\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]/g;
const BARE = /(?:^|[\s(`'"[])((?:\.\/)?[\w.\-/]*[\w-]\.md)(?=$|[\s)`'",;:.\]])/g;

function isRelativeMd(target: string): boolean {
  const path = target.replace(/[#?].*$/, '');
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#') && /\.md$/i.test(path);
}

/** The rest of the line after an entry, without separators, or null. */
function describe(rest: string): string | null {
  const d = rest.replace(/^\s*(?:—|–|--|-|:)\s*/, '').trim();
  return d === '' ? null : d;
}

function entriesOfLine(text: string, line: number): ClaudeIndexEntry[] {
  const found: Array<ClaudeIndexEntry & { at: number; end: number }> = [];
  for (const m of text.matchAll(LINK)) {
    const target = (m[2] ?? m[3] ?? '').trim();
    if (!isRelativeMd(target)) continue;
    const at = m.index ?? 0;
    found.push({ target, text: group(m, 1).trim(), description: null, form: 'link', line, endLine: line, at, end: at + m[0].length });
  }
  for (const m of text.matchAll(WIKI)) {
    const at = m.index ?? 0;
    found.push({
      target: group(m, 1).trim(),
      text: group(m, 1).trim(),
      description: null,
      form: 'wiki',
      line,
      endLine: line,
      at,
      end: at + m[0].length,
    });
  }
  const masked = found.reduce((s, f) => s.slice(0, f.at) + ' '.repeat(f.end - f.at) + s.slice(f.end), text);
  for (const m of masked.matchAll(BARE)) {
    const target = group(m, 1);
    const at = (m.index ?? 0) + m[0].length - target.length;
    found.push({ target, text: target, description: null, form: 'bare', line, endLine: line, at, end: at + target.length });
  }
  found.sort((a, b) => a.at - b.at);
  return found.map(({ at: _at, end, ...entry }, k) => {
    const next = found[k + 1];
    return { ...entry, description: describe(text.slice(end, next ? next.at : text.length).replace(/`$/, '')) };
  });
}

export function parseClaudeIndex(ctx: ParseContext): Body<'claude_memory_index'> {
  const scan = ctx.fences();
  const entries: ClaudeIndexEntry[] = [];
  for (const [i, text] of ctx.lines.entries()) {
    if (scan.mask[i] || (!text.includes('.md') && !text.includes('[['))) continue;
    appendAll(entries, entriesOfLine(text, i + 1));
  }
  const bytes = new TextEncoder().encode(ctx.text).length;
  if (ctx.lines.length > CLAUDE_INDEX_MAX_LINES) {
    const hidden = entries.filter((e) => e.line > CLAUDE_INDEX_MAX_LINES).length;
    ctx.diags.warning(
      'claude/index-limit',
      CLAUDE_INDEX_MAX_LINES + 1,
      ctx.lines.length,
      `Claude Code loads only the first ${CLAUDE_INDEX_MAX_LINES} lines of MEMORY.md; lines ${CLAUDE_INDEX_MAX_LINES + 1}–${ctx.lines.length} (${hidden} pointers) are never seen.`,
    );
  } else if (bytes > CLAUDE_INDEX_MAX_BYTES) {
    ctx.diags.warning(
      'claude/index-limit',
      1,
      ctx.lines.length,
      `MEMORY.md is ${bytes} bytes; Claude Code loads only the first ${CLAUDE_INDEX_MAX_BYTES} bytes.`,
    );
  }
  if (entries.length === 0 && ctx.lines.some((l) => l.trim() !== '')) {
    ctx.diags.info(
      'claude/index-no-entries',
      1,
      1,
      'This index points to no topic file ([[name]], [text](file.md) or file.md); its content is inline memory.',
    );
  }
  return {
    kind: 'claude_memory_index',
    title: firstHeading(ctx.lines, scan.mask, 1),
    entries,
    sections: buildOutline(ctx.lines, scan.mask),
  };
}
