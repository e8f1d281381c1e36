// Folds the consolidation into an existing MEMORY.md: blocks no input affects stay byte for byte and in place.
import { group, itemAt } from '../../../platform/indexed';
import { appendAll } from '../../../platform/append';
import {
  blockRefs,
  contentEnd,
  dropTaskRefs,
  fileRef,
  parseMemoryDoc,
  serializeMemoryDoc,
  taskSpans,
  type DocBlock,
  type MemoryDoc,
} from './memory-doc';
import { blocksOf, EARLIER, extensionBlock, importBlock, notesBlock, refBullets, renderBlock, taskLines, type Block } from './memory-md';
import type { Entry } from './model';
import type { ExtensionInput, ImportInput, NoteInput } from './types';

export interface MergeSource {
  existing: string;
  entries: readonly Entry[];
  /** Rollout summaries in staging the engine could not read (they exist, so blocks naming them stay). */
  skippedRollouts: readonly string[];
  notes: readonly NoteInput[];
  imports: ReadonlyArray<{ input: ImportInput; scope: string }>;
  extensions: readonly ExtensionInput[];
  skills: ReadonlySet<string>;
}

export interface MergeResult {
  text: string;
  /** Blocks left byte for byte as they were. */
  keptBlocks: number;
}

const NOTES_TITLE = 'ad-hoc notes from the user';

/**
 * A block after the inputs it names are checked: bullets naming a file that is gone are dropped, a task left with no
 * file is dropped (with its `[Task n]` refs), a rollout whose summary was rewritten gets its new `updated_at=`.
 * Returns null when every task went (the selection dropped all of the block's inputs).
 */
function pruneBlock(block: DocBlock, present: (ref: string) => boolean, updatedAt: ReadonlyMap<string, string>): DocBlock | null {
  if (blockRefs(block).length === 0) return block;
  let lines = [...block.lines];
  const spans = taskSpans(lines);
  const removed = new Set<number>();
  for (const span of [...spans].reverse()) {
    const segment = lines.slice(span.start, span.end);
    const refs = segment.map(fileRef);
    if (refs.every((r) => r === null)) continue;
    if (refs.every((r) => r === null || !present(r))) {
      lines.splice(span.start, span.end - span.start);
      removed.add(span.n);
      continue;
    }
    const kept = segment
      .filter((_, i) => {
        const ref = itemAt(refs, i);
        return ref === null || present(ref);
      })
      .map((line) => {
        const fresh = updatedAt.get(fileRef(line) ?? '');
        return fresh === undefined ? line : line.replace(/updated_at=[^,)]*/, `updated_at=${fresh}`);
      });
    lines.splice(span.start, span.end - span.start, ...kept);
  }
  if (spans.length > 0 && removed.size === spans.length) return null;
  lines = dropTaskRefs(lines, removed);
  return lines.every((l, i) => l === block.lines[i]) && lines.length === block.lines.length ? block : { title: block.title, lines };
}

/**
 * Whether a file a bullet names is still in staging, as far as the engine's inputs tell: rollout summaries, notes,
 * imported files and active extensions' resources (Markdown) are known; anything else (a `scope.json`, an extension
 * the engine does not read) counts as present, so a block is never cut on doubt.
 */
export function presence(
  src: Pick<MergeSource, 'entries' | 'skippedRollouts' | 'notes' | 'imports' | 'extensions'>,
): (ref: string) => boolean {
  const known = new Set<string>([
    ...src.entries.map((e) => `rollout_summaries/${e.rollout.file}`),
    ...src.skippedRollouts.map((f) => `rollout_summaries/${f}`),
    ...src.notes.map((n) => n.path),
    ...src.imports.flatMap((i) => i.input.files),
    ...src.extensions.flatMap((x) => x.files),
  ]);
  const readDirs = [
    'rollout_summaries/',
    'extensions/ad_hoc/notes/',
    'extensions/external_agent_import/resources/',
    ...src.extensions.map((x) => `extensions/${x.name}/resources/`),
  ];
  return (ref) => known.has(ref) || !ref.endsWith('.md') || !readDirs.some((dir) => ref.startsWith(dir));
}

/** `applies_to: cwd=<cwd>;` of a block, for telling two blocks of the same title apart. */
function cwdOf(block: DocBlock): string | null {
  for (const line of block.lines) {
    const m = /^applies_to:\s*cwd=([^;]*);/.exec(line.trim());
    if (m) return group(m, 1).trim();
  }
  return null;
}

/** New tasks (and their block-level bullets) appended to an existing block of the same task group. */
function appendTasks(block: DocBlock, entries: readonly Entry[]): DocBlock {
  const lines = [...block.lines];
  const spans = taskSpans(lines);
  let n = spans.reduce((m, s) => Math.max(m, s.n), 0);
  const lastTask = spans.at(-1);
  const afterTasks = lastTask ? lastTask.end : contentEnd(lines);
  const insertAt = afterTasks >= contentEnd(lines) ? contentEnd(lines) : afterTasks;
  const added: string[] = [];
  const sections: Record<string, Array<[string, number]>> = {
    'User preferences': [],
    'Reusable knowledge': [],
    'Failures and how to do differently': [],
  };
  for (const e of entries) {
    n++;
    const task = taskLines(e, n);
    // taskLines opens with a blank line; where the insertion point already follows one, it is not repeated.
    appendAll(added, insertAt === contentEnd(lines) ? task : [...task.slice(1), '']);
    for (const p of e.preferences) sections['User preferences']?.push([p, n]);
    for (const k of e.knowledge) sections['Reusable knowledge']?.push([k, n]);
    for (const f of e.failures) sections['Failures and how to do differently']?.push([f, n]);
  }
  lines.splice(insertAt, 0, ...added);
  for (const [title, items] of Object.entries(sections)) {
    const bullets = refBullets(items);
    if (bullets.length === 0) continue;
    const at = lines.findIndex((l) => l.trim() === `## ${title}`);
    if (at < 0) {
      lines.splice(contentEnd(lines), 0, '', `## ${title}`, '', ...bullets);
      continue;
    }
    let end = at + 1;
    while (end < lines.length && !/^#{1,2}\s/.test(itemAt(lines, end))) end++;
    while (end > at + 1 && itemAt(lines, end - 1).trim() === '') end--;
    lines.splice(end, 0, ...bullets);
  }
  return { title: block.title, lines };
}

/** `lines` is a rendered block: its first line is the `# Task Group:` heading. */
function blockOf(lines: string[]): DocBlock {
  return {
    title: itemAt(lines, 0)
      .replace(/^#\s+Task Group:\s*/, '')
      .trim(),
    lines,
  };
}

/** A generated block (notes, an import, an extension) replacing the one of its title, or placed where the render puts it. */
function placeSpecial(doc: MemoryDoc, lines: string[], files: readonly string[], referenced: ReadonlySet<string>, atTop: boolean): void {
  const fresh = blockOf(lines);
  const index = doc.blocks.findIndex((b) => b.title === fresh.title);
  const old = doc.blocks[index];
  if (old !== undefined) {
    const end = contentEnd(old.lines);
    const same = end === lines.length && lines.every((l, i) => l === old.lines[i]);
    if (!same) doc.blocks[index] = { title: fresh.title, lines: [...lines, ...old.lines.slice(end)] };
    return;
  }
  if (files.length > 0 && files.every((f) => referenced.has(f))) return; // another block already covers every file
  insertBlock(doc, fresh, atTop ? 0 : doc.blocks.length);
}

/** Inserts a block with one blank line between it and its neighbours, leaving them as they are. */
function insertBlock(doc: MemoryDoc, block: DocBlock, at: number): void {
  if (at < doc.blocks.length) {
    doc.blocks.splice(at, 0, { title: block.title, lines: [...block.lines, ''] });
    return;
  }
  const lastLine = doc.blocks.at(-1)?.lines.at(-1);
  const lines = lastLine !== undefined && lastLine.trim() !== '' ? ['', ...block.lines] : block.lines;
  doc.blocks.push({ title: block.title, lines });
}

function renderedLines(b: Block, skills: ReadonlySet<string>): string[] {
  return renderBlock(b, undefined, skills);
}

/**
 * MEMORY.md merged with the inputs: existing blocks kept in place (and byte for byte unless an input of theirs
 * changed or went away), new rollouts added to the block of their task group (same title and cwd) or as new blocks at
 * the top (freshest first, as Codex's template orders them), the notes block first, imports and extensions last.
 */
export function mergeMemoryMd(src: MergeSource): MergeResult {
  const doc = parseMemoryDoc(src.existing);
  const before = new Map(doc.blocks.map((b) => [b, b.lines.join('\n')]));
  const referenced = new Set(doc.blocks.flatMap(blockRefs));
  const present = presence(src);
  const updatedAt = new Map(src.entries.map((e) => [`rollout_summaries/${e.rollout.file}`, e.rollout.updatedAt]));
  doc.blocks = doc.blocks.map((b) => pruneBlock(b, present, updatedAt)).filter((b): b is DocBlock => b !== null);

  const fresh = src.entries.filter((e) => !referenced.has(`rollout_summaries/${e.rollout.file}`));
  const top: DocBlock[] = [];
  for (const b of blocksOf(fresh)) {
    const target = doc.blocks.findIndex(
      (d) => (d.title === b.title || d.title === b.title.replace(EARLIER, '')) && cwdOf(d) === (b.cwd || 'unknown'),
    );
    const existing = doc.blocks[target];
    if (existing !== undefined) doc.blocks[target] = appendTasks(existing, b.entries);
    else top.push(blockOf(renderedLines(b, src.skills)));
  }
  const firstRollout = doc.blocks.length > 0 && doc.blocks[0]?.title === NOTES_TITLE ? 1 : 0;
  top.forEach((b, i) => insertBlock(doc, b, firstRollout + i));

  if (src.notes.length > 0)
    placeSpecial(
      doc,
      notesBlock(src.notes),
      src.notes.map((n) => n.path),
      referenced,
      true,
    );
  for (const { input, scope } of src.imports) placeSpecial(doc, importBlock(input, scope), input.files, referenced, false);
  for (const ext of src.extensions) placeSpecial(doc, extensionBlock(ext), ext.files, referenced, false);

  // Lines the merge wrote carry no `\r`; in a CRLF file they get one, so its line endings stay as they were.
  if (doc.cr)
    for (const b of doc.blocks)
      if (before.get(b) === undefined || before.get(b) !== b.lines.join('\n'))
        b.lines = b.lines.map((l) => (l.endsWith('\r') ? l : `${l}\r`));
  const keptBlocks = doc.blocks.filter((b) => before.get(b) === b.lines.join('\n')).length;
  return { text: serializeMemoryDoc(doc), keptBlocks };
}
