// Small Markdown helpers shared by the parsers: headings, bullets, code-fence masks and heading outlines.
import { group, itemAt } from '../platform/indexed';
import type { Section } from '../../../shared/formats';

export interface Heading {
  level: number;
  title: string;
}

/** An ATX heading (`## Title`, up to three leading spaces), or null. */
export function headingOf(text: string): Heading | null {
  const first = text.charCodeAt(0) === 35 ? 0 : text.search(/\S/);
  if (first < 0 || first > 3 || text.charCodeAt(first) !== 35) return null;
  const m = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/.exec(text);
  if (!m) return null;
  const raw = m[2] ?? '';
  const title = /^#+$/.test(raw) ? '' : raw.replace(/[ \t]+#+$/, '');
  return { level: group(m, 1).length, title };
}

export interface Bullet {
  /** Leading whitespace width (a tab counts as four). */
  indent: number;
  marker: '-' | '*' | '+';
  text: string;
}

/** A list item `- text` / `* text` / `+ text` (any indentation), or null. */
export function bulletOf(text: string): Bullet | null {
  const m = /^([ \t]*)([-*+])(?:[ \t]+(.*)|[ \t]*)$/.exec(text);
  if (!m) return null;
  const marker = m[2];
  // Unreachable: the pattern's second group is one of these three characters.
  if (marker !== '-' && marker !== '*' && marker !== '+') return null;
  let indent = 0;
  for (const ch of group(m, 1)) indent += ch === '\t' ? 4 : 1;
  return { indent, marker, text: (m[3] ?? '').trimEnd() };
}

export const isBlank = (text: string): boolean => text.trim() === '';

interface Fence {
  char: string;
  length: number;
  line: number;
}

function fenceOpen(text: string): Fence | null {
  const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(text);
  if (!m) return null;
  const run = group(m, 1);
  const char = run.charAt(0);
  if (char === '`' && group(m, 2).includes('`')) return null;
  return { char, length: run.length, line: 0 };
}

function closesFence(text: string, fence: Fence): boolean {
  const m = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(text);
  if (m === null) return false;
  const run = group(m, 1);
  return run.charAt(0) === fence.char && run.length >= fence.length;
}

export interface FenceScan {
  /** 1 for every line inside a fenced code block, including the fence lines themselves (0-based index). */
  mask: Uint8Array;
  /** 1-based lines of fences still open at the end of the file or at a barrier line. */
  unclosed: number[];
}

/**
 * Marks fenced code blocks. A `barrier` line (a structural line Codex itself writes, such as `## Thread `)
 * closes any open fence, so one unclosed fence cannot swallow the rest of a generated file.
 */
export function scanFences(lines: readonly string[], barrier?: RegExp): FenceScan {
  const mask = new Uint8Array(lines.length);
  const unclosed: number[] = [];
  let open: Fence | null = null;
  for (const [i, text] of lines.entries()) {
    const c = text.charCodeAt(text.search(/\S|$/));
    if (open) {
      if (barrier && barrier.test(text)) {
        unclosed.push(open.line);
        open = null;
        continue;
      }
      mask[i] = 1;
      if ((c === 96 || c === 126) && closesFence(text, open)) open = null;
      continue;
    }
    if (c !== 96 && c !== 126) continue;
    const f = fenceOpen(text);
    if (f) {
      open = { ...f, line: i + 1 };
      mask[i] = 1;
    }
  }
  if (open) unclosed.push(open.line);
  return { mask, unclosed };
}

/** The last non-blank line in `line..endLine` (1-based, inclusive), or `line` when all are blank. */
export function lastContentLine(lines: readonly string[], line: number, endLine: number): number {
  for (let l = endLine; l > line; l--) if (!isBlank(itemAt(lines, l - 1))) return l;
  return line;
}

/** Every heading outside code fences, each spanning to the line before the next heading of the same or a higher level. */
export function buildOutline(lines: readonly string[], mask: Uint8Array, from = 1, to = lines.length): Section[] {
  const sections: Section[] = [];
  const open: Section[] = [];
  const close = (s: Section, next: number): void => {
    s.endLine = lastContentLine(lines, s.line, next - 1);
  };
  for (let l = from; l <= to; l++) {
    if (mask[l - 1]) continue;
    const h = headingOf(itemAt(lines, l - 1));
    if (!h) continue;
    for (let top = open.at(-1); top !== undefined && top.level >= h.level; top = open.at(-1)) {
      open.pop();
      close(top, l);
    }
    const section: Section = { title: h.title, level: h.level, line: l, endLine: l };
    sections.push(section);
    open.push(section);
  }
  for (const s of open) close(s, to + 1);
  return sections;
}

/** The first heading of `level` (outside fences) as a title element, or null. */
export function firstHeading(
  lines: readonly string[],
  mask: Uint8Array,
  level: number,
  from = 1,
): { text: string; line: number; endLine: number } | null {
  for (let l = from; l <= lines.length; l++) {
    if (mask[l - 1]) continue;
    const h = headingOf(itemAt(lines, l - 1));
    if (h && h.level === level) return { text: h.title, line: l, endLine: l };
  }
  return null;
}
