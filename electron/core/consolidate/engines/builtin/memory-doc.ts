// An existing MEMORY.md as editable task-group blocks that serialize back byte for byte when nothing changes.
import { group, itemAt } from '../../../platform/indexed';

/** `# Task Group:` opens a block; everything up to the next one (trailing blank lines included) belongs to it. */
export const BLOCK_HEADER = /^#\s+Task Group:\s*([^\r]*)\r?$/;
const TASK_HEADER = /^##\s+Task\s+(\d+)\s*:/;
const SECTION_HEADER = /^##\s/;
/** A file bullet of `### rollout_summary_files` / `### extension_resource_files`: the path it names. */
const FILE_BULLET = /^-\s+((?:rollout_summaries|extensions)\/[^\s()]+)/;
const TASK_REF = /\[Task\s+(\d+)\]/g;

export interface DocBlock {
  title: string;
  /** Header first; trailing blank lines included, so serializing the blocks in order gives the file back. */
  lines: string[];
}

export interface MemoryDoc {
  /** Lines before the first block. */
  preamble: string[];
  blocks: DocBlock[];
  finalNewline: boolean;
  /** `\r` when most lines end with CRLF: lines keep their own `\r`, and lines the merge adds get one too. */
  cr: '' | '\r';
}

export function parseMemoryDoc(text: string): MemoryDoc {
  const finalNewline = text.endsWith('\n');
  const lines = (finalNewline ? text.slice(0, -1) : text).split('\n');
  const crlf = lines.filter((l) => l.endsWith('\r')).length;
  const doc: MemoryDoc = { preamble: [], blocks: [], finalNewline, cr: crlf > lines.length / 2 ? '\r' : '' };
  for (const line of lines) {
    const header = BLOCK_HEADER.exec(line);
    const block = header ? null : doc.blocks.at(-1);
    if (header) doc.blocks.push({ title: group(header, 1).trim(), lines: [line] });
    else if (block) block.lines.push(line);
    else doc.preamble.push(line);
  }
  return doc;
}

export function serializeMemoryDoc(doc: MemoryDoc): string {
  const lines = [...doc.preamble, ...doc.blocks.flatMap((b) => b.lines)];
  if (lines.length === 0) return '';
  return `${lines.join('\n')}${doc.finalNewline ? '\n' : ''}`;
}

export function fileRef(line: string): string | null {
  return FILE_BULLET.exec(line)?.[1] ?? null;
}

/** The files a block's bullets name (rollout summaries and extension files). */
export function blockRefs(block: DocBlock): string[] {
  return block.lines.map(fileRef).filter((r): r is string => r !== null);
}

export interface TaskSpan {
  n: number;
  /** Line indexes in the block: `## Task n:` … up to the next `## ` heading (exclusive). */
  start: number;
  end: number;
}

export function taskSpans(lines: readonly string[]): TaskSpan[] {
  const spans: TaskSpan[] = [];
  for (const [i, line] of lines.entries()) {
    const m = TASK_HEADER.exec(line);
    if (!m) continue;
    let end = i + 1;
    while (end < lines.length && !SECTION_HEADER.test(itemAt(lines, end)) && !BLOCK_HEADER.test(itemAt(lines, end))) end++;
    spans.push({ n: Number(m[1]), start: i, end });
  }
  return spans;
}

/** Index after the block's last non-blank line (where appended content goes, before its trailing blank lines). */
export function contentEnd(lines: readonly string[]): number {
  let end = lines.length;
  while (end > 1 && itemAt(lines, end - 1).trim() === '') end--;
  return end;
}

/**
 * Drops `[Task n]` refs of removed tasks from the block-level bullets; a bullet left with none is dropped, and so is
 * a block-level section left with no bullet. Task sections themselves are untouched.
 */
export function dropTaskRefs(lines: string[], removed: ReadonlySet<number>): string[] {
  if (removed.size === 0) return lines;
  const inTask = new Set<number>();
  for (const span of taskSpans(lines)) for (let i = span.start; i < span.end; i++) inTask.add(i);
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (inTask.has(i) || !line.startsWith('- ') || !TASK_REF.test(line)) {
      out.push(line);
      return;
    }
    TASK_REF.lastIndex = 0;
    const kept = line.replace(TASK_REF, (ref, n: string) => (removed.has(Number(n)) ? '' : ref));
    if (/\[Task\s+\d+\]/.test(kept)) out.push(kept.replace(/\s+$/, ''));
  });
  TASK_REF.lastIndex = 0;
  return dropEmptySections(out);
}

/** A non-task `## ` section with no content line left is removed with its blank lines. */
function dropEmptySections(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = itemAt(lines, i);
    if (SECTION_HEADER.test(line) && !TASK_HEADER.test(line)) {
      let j = i + 1;
      while (j < lines.length && !SECTION_HEADER.test(itemAt(lines, j)) && itemAt(lines, j).trim() === '') j++;
      const next = lines[j];
      const nextIsHeading = next === undefined || SECTION_HEADER.test(next);
      if (nextIsHeading) {
        // Drop the heading and the blank lines after it; the blank line before it stays as the separator.
        i = j - 1;
        continue;
      }
    }
    out.push(line);
  }
  return out;
}
