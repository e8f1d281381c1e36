// The text of a fix: entries removed (with a date group or scope left empty), duplicates merged into the kept one.
import type { TextEdit, MemoryBlock, MemoryMdParsed, MemorySummaryParsed, SummaryPointer, SummaryTopic } from '../../../shared/formats';
import type { EntryModel } from '../review/blocks/entries';
import { normalisedLine } from './similarity';

const insertAfter = (line: number, lines: readonly string[]): TextEdit => ({ line: line + 1, endLine: line, text: lines.join('\n') });
const replaceLine = (line: number, text: string): TextEdit => ({ line, endLine: line, text });
const removeRange = (start: number, end: number): TextEdit => ({ line: start + 1, endLine: end, text: '' });

/** A task reference like "[Task 2]" names a task of the block it came from: carried into another block it would lie. */
export const withoutTaskRefs = (text: string) => text.replace(/(?:\s*\[Task \d+\])+\s*$/, '');

/**
 * The line ranges that remove `removed` (entry ids) from a file whose entries are `all`: each entry with the blank
 * lines after it, and a summary date group or scope whose every entry goes is removed whole (heading included).
 */
export function removalEdits(all: readonly EntryModel[], removed: ReadonlySet<string>): TextEdit[] {
  const ranges: [number, number][] = [];
  const gone = all.filter((m) => removed.has(m.entry.id));
  for (const model of gone) {
    let range: [number, number] = [model.start, model.end];
    // Widest container first: a scope emptied takes its date groups with it.
    for (const container of [...model.containers].reverse()) {
      const inside = all.filter((m) => m.start >= container.start && m.start < container.end);
      if (inside.every((m) => removed.has(m.entry.id))) {
        range = [Math.min(range[0], container.start), Math.max(range[1], container.end)];
        break;
      }
    }
    ranges.push(range);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  return merged.map(([s, e]) => removeRange(s, e));
}

/** Removing single lines (a bullet that restates a rule) rather than whole entries. */
export function lineRemovalEdits(lines: readonly number[]): TextEdit[] {
  return [...new Set(lines)].sort((a, b) => a - b).map((line) => ({ line, endLine: line, text: '' }));
}

function keywordLine(lines: readonly string[], block: MemoryBlock): number | null {
  const task = block.tasks[0];
  if (!task) return null;
  for (let i = task.line; i < task.endLine; i++) {
    if ((lines[i] ?? '').trim() !== '### keywords') continue;
    for (let j = i + 1; j < task.endLine; j++) if (/^\s*-\s+\S/.test(lines[j] ?? '')) return j + 1;
    return null;
  }
  return null;
}

const lowerSet = (items: readonly string[]) => new Set(items.map((k) => k.toLowerCase()));

function carriedBullets(parsed: MemoryMdParsed, kept: EntryModel, blocks: readonly MemoryBlock[]): Map<string, string[]> {
  const seen = new Set(kept.lines.map((l) => normalisedLine(l.text)).filter((n) => n !== ''));
  const bySection = new Map<string, string[]>();
  for (const block of blocks) {
    for (const section of block.sections) {
      for (const bullet of section.bullets) {
        const text = parsed.source.lines[bullet.line - 1] ?? '';
        const norm = normalisedLine(text);
        if (norm === '' || seen.has(norm)) continue;
        seen.add(norm);
        const key = section.title.trim();
        bySection.set(key, [...(bySection.get(key) ?? []), withoutTaskRefs(text)]);
      }
    }
  }
  return bySection;
}

/**
 * MEMORY.md: the kept block gains the others' rollout pointers and keywords it lacks, and the section bullets no
 * copy of it has yet (under the same heading, task references dropped); the others are removed.
 */
export function mergeTaskGroupEdits(
  parsed: MemoryMdParsed,
  all: readonly EntryModel[],
  kept: EntryModel,
  members: readonly EntryModel[],
): TextEdit[] {
  const lines = parsed.source.lines;
  const blockAt = (m: EntryModel) => parsed.blocks.find((b) => b.line === m.entry.line) as MemoryBlock;
  const block = blockAt(kept);
  const others = members.map(blockAt);
  const edits: TextEdit[] = [];
  const files = new Set(block.tasks.flatMap((t) => t.rolloutSummaryFiles.map((r) => r.file)));
  const pointers: string[] = [];
  for (const ref of others.flatMap((b) => b.tasks.flatMap((t) => t.rolloutSummaryFiles))) {
    if (files.has(ref.file)) continue;
    files.add(ref.file);
    pointers.push(lines[ref.line - 1] ?? `- ${ref.file}`);
  }
  const anchor = block.tasks.flatMap((t) => t.rolloutSummaryFiles).at(-1);
  if (anchor && pointers.length > 0) edits.push(insertAfter(anchor.line, pointers));
  const known = lowerSet(block.keywords);
  const keywords = [...new Set(others.flatMap((b) => b.keywords).filter((k) => !known.has(k.toLowerCase())))];
  const at = keywordLine(lines, block);
  if (at !== null && keywords.length > 0) edits.push(replaceLine(at, `${(lines[at - 1] ?? '').trimEnd()}, ${keywords.join(', ')}`));
  for (const [title, bullets] of carriedBullets(parsed, kept, others)) {
    const section = block.sections.find((s) => s.title.trim().toLowerCase() === title.toLowerCase());
    const last = section?.bullets.at(-1);
    if (section) edits.push(insertAfter(last ? last.line : section.line, last ? bullets : ['', ...bullets]));
    else edits.push(insertAfter(kept.entry.endLine, ['', `## ${title}`, '', ...bullets]));
  }
  return [...mergeSameSpot(edits), ...removalEdits(all, new Set(members.map((m) => m.entry.id)))];
}

/** Two insertions after the same line become one (edits may not overlap). */
function mergeSameSpot(edits: readonly TextEdit[]): TextEdit[] {
  const out = new Map<string, TextEdit>();
  for (const e of edits) {
    const key = `${e.line}:${e.endLine}`;
    const prior = out.get(key);
    if (prior && e.endLine === e.line - 1) out.set(key, { ...prior, text: `${prior.text}\n${e.text}` });
    else out.set(key, e);
  }
  return [...out.values()];
}

type SummaryItem = SummaryPointer | SummaryTopic;

function itemAt(parsed: MemorySummaryParsed, line: number): SummaryItem | null {
  for (const scope of parsed.scopes) {
    for (const item of [...scope.pointers, ...scope.topics, ...scope.dateGroups.flatMap((g) => [...g.pointers, ...g.topics])])
      if (item.line === line) return item;
  }
  return null;
}

/**
 * memory_summary.md: the kept entry gains the others' keywords (a topic line) and rollout references (in its `desc:`,
 * or as an `also:` sub-bullet of a pointer line); the others are removed (an emptied date group or scope with them).
 */
export function mergeSummaryEdits(
  parsed: MemorySummaryParsed,
  all: readonly EntryModel[],
  kept: EntryModel,
  members: readonly EntryModel[],
): TextEdit[] {
  const edits: TextEdit[] = [];
  const item = itemAt(parsed, kept.entry.line);
  const lines = parsed.source.lines;
  const indent = /^(\s*)/.exec(lines[kept.entry.line] ?? '')?.[1] || '  ';
  const refs = [...new Set(members.flatMap((m) => m.entry.pointers).filter((p) => !kept.entry.pointers.includes(p)))];
  if (item && !('file' in item)) {
    const known = lowerSet(item.keywords);
    const keywords = [...new Set(members.flatMap((m) => m.entry.keywords).filter((k) => !known.has(k.toLowerCase())))];
    if (keywords.length > 0)
      edits.push(
        replaceLine(item.line, `${(lines[item.line - 1] ?? '').trimEnd()}${item.keywords.length > 0 ? ', ' : ': '}${keywords.join(', ')}`),
      );
    const desc = item.subBullets.find((s) => s.label.toLowerCase() === 'desc');
    if (desc && refs.length > 0)
      edits.push(replaceLine(desc.line, `${(lines[desc.line - 1] ?? '').trimEnd()} ${refs.map((r) => `(${r})`).join(' ')}`));
    else if (refs.length > 0) edits.push(insertAfter(kept.entry.endLine, [`${indent}- also in: ${refs.join(', ')}`]));
  } else if (refs.length > 0) {
    const byFile = new Map(members.map((m) => [m.entry.pointers[0], m.entry.threadIds[0]]));
    edits.push(
      insertAfter(
        kept.entry.endLine,
        refs.map((r) => `${indent}- also: ${r}${byFile.get(r) ? `; thread_id=${byFile.get(r)}` : ''}`),
      ),
    );
  }
  return [...edits, ...removalEdits(all, new Set(members.map((m) => m.entry.id)))];
}
