// Hunks that never cross a block: the block diff's changes grouped per block, context clipped where blocks meet.
import type { BlockSpan, FileBlocks, Hunk, ReviewBlock } from '../../../../shared/review';
import { type Bounds, buildHunk, CONTEXT_LINES, unifiedStart } from '../hunks';
import { itemAt } from '../../platform/indexed';
import { splitLines } from '../lines';
import { type BlockDiff, diffBlockTrees, type OutlineEntry, type TaggedChange } from './diff';
import { blockTree, type BlockTree } from './tree';
import { isolateSecretLines, markSecrets, secretLinesAround, type Isolated, type SecretLines } from '../secret-lines';

/** Which file a text belongs to, so its kind (and block parser) can be told from the path. */
export interface BlockFile {
  relPath: string;
  version?: 'v1' | 'v2';
}

/**
 * Groups changes of the same block whose unchanged gap is at most twice the context (as plain hunks do); a change cut
 * out `alone` (a secret line, `secret-lines.ts`) is a group of its own.
 */
function groupByUnit(changes: readonly Isolated<TaggedChange>[]): TaggedChange[][] {
  const groups: Isolated<TaggedChange>[][] = [];
  for (const c of changes) {
    if (c.oldLen === 0 && c.newLen === 0) continue;
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    const joins = last && !last.alone && !c.alone && last.unit === c.unit && c.oldIdx - (last.oldIdx + last.oldLen) <= 2 * CONTEXT_LINES;
    if (group && joins) group.push(c);
    else groups.push([c]);
  }
  return groups;
}

/** Bounds per group with up to three lines of context, shared fairly where two blocks' hunks are closer than that. */
function clippedBounds(groups: readonly TaggedChange[][], oldLength: number): Bounds[] {
  let prevOldTo = 0;
  return groups.map((group, g) => {
    const first = itemAt(group, 0);
    const last = itemAt(group, group.length - 1);
    const end = last.oldIdx + last.oldLen;
    const next = groups[g + 1]?.[0];
    const gapAfter = (next ? next.oldIdx : oldLength) - end;
    const trailing = next && gapAfter < 2 * CONTEXT_LINES ? Math.floor(gapAfter / 2) : Math.min(CONTEXT_LINES, gapAfter);
    const leading = Math.min(CONTEXT_LINES, first.oldIdx - prevOldTo);
    prevOldTo = end + trailing;
    return {
      oldFrom: first.oldIdx - leading,
      oldTo: end + trailing,
      newFrom: first.newIdx - leading,
      newTo: last.newIdx + last.newLen + trailing,
    };
  });
}

/** Hunks of the block diff, each with the outline entry it belongs to; ids made unique where two insertions look alike. */
export function hunksOfBlockDiff(
  a: readonly string[],
  b: readonly string[],
  diff: Pick<BlockDiff, 'changes'> & { changes: readonly Isolated<TaggedChange>[] },
): Array<{ hunk: Hunk; unit: number }> {
  const groups = groupByUnit(diff.changes);
  const bounds = clippedBounds(groups, a.length);
  const seen = new Map<string, number>();
  return groups.map((group, g) => {
    const hunk = buildHunk(a, b, group, bounds[g]);
    const n = seen.get(hunk.id) ?? 0;
    seen.set(hunk.id, n + 1);
    return { hunk: n === 0 ? hunk : { ...hunk, id: `${hunk.id}-${n}` }, unit: itemAt(group, 0).unit };
  });
}

/** Both trees, or null when either side is not a block-structured kind (then the plain line diff is used). */
function treesOf(
  a: readonly string[],
  b: readonly string[],
  base: string,
  proposed: string,
  file: BlockFile,
): [BlockTree, BlockTree] | null {
  const oldTree = blockTree(base, file.relPath, file.version, a.length);
  if (!oldTree) return null;
  const newTree = blockTree(proposed, file.relPath, file.version, b.length);
  return newTree && newTree.kind === oldTree.kind ? [oldTree, newTree] : null;
}

/**
 * Block-aligned hunks for a Codex memory file, or null when the file has no blocks (the caller diffs lines); the
 * secret lines are scanned unless `given` (stored texts, see `computeReviewHunks`).
 */
export function computeBlockHunks(base: string, proposed: string, file: BlockFile, given?: SecretLines): Hunk[] | null {
  const a = splitLines(base);
  const b = splitLines(proposed);
  const trees = treesOf(a, b, base, proposed, file);
  if (!trees) return null;
  const diff = diffBlockTrees(a, b, trees[0].root, trees[1].root);
  // A secret line added inside a block becomes its own hunk, and every secret line is marked.
  const secrets = given ?? secretLinesAround(a, b, diff.changes);
  const changes = isolateSecretLines(diff.changes, secrets, { a, b });
  return markSecrets(
    hunksOfBlockDiff(a, b, { changes }).map((h) => h.hunk),
    secrets,
  );
}

const span = (r: { start: number; end: number } | null): BlockSpan | null =>
  r ? { start: unifiedStart(r.start, r.end - r.start), lines: r.end - r.start } : null;

/**
 * The changed lines of a hunk (context left out) on each side, 0-based and end-exclusive, or null for a side with none.
 * Blank lines count only when nothing else changed: a separator line says nothing about which block changed.
 */
function changedRanges(hunk: Hunk, withBlank = false): { old: [number, number] | null; new: [number, number] | null } {
  let o = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
  let n = hunk.newLines === 0 ? hunk.newStart : hunk.newStart - 1;
  let oldR: [number, number] | null = null;
  let newR: [number, number] | null = null;
  for (const line of hunk.lines) {
    const sign = line[0];
    const counts = withBlank || line.slice(1).trim() !== '';
    if (sign === '-') oldR = counts ? [oldR?.[0] ?? o, ++o] : (o++, oldR);
    else if (sign === '+') newR = counts ? [newR?.[0] ?? n, ++n] : (n++, newR);
    else if (sign === ' ') [o, n] = [o + 1, n + 1];
  }
  if (!withBlank && oldR === null && newR === null) return changedRanges(hunk, true);
  return { old: oldR, new: newR };
}

const within = (r: [number, number] | null, e: { start: number; end: number } | null) =>
  r === null || (e !== null && r[0] >= e.start && r[1] <= e.end);

/** The smallest outline entry holding a hunk's changed lines on both sides, or null (a hunk across blocks). */
function ownerOf(hunk: Hunk, outline: readonly OutlineEntry[]): OutlineEntry | null {
  if (hunk.kind === 'create' || hunk.kind === 'delete') return null;
  const r = changedRanges(hunk);
  let best: OutlineEntry | null = null;
  let bestSize = Infinity;
  for (const e of outline) {
    const holds = r.old && r.new ? within(r.old, e.old) && within(r.new, e.new) : r.old ? within(r.old, e.old) : within(r.new, e.new);
    if (!holds) continue;
    const size = (e.old ? e.old.end - e.old.start : 0) + (e.new ? e.new.end - e.new.start : 0);
    if (size <= bestSize) [best, bestSize] = [e, size];
  }
  return best;
}

function toReviewBlock(e: OutlineEntry, hunkIds: string[]): ReviewBlock {
  return {
    id: `b${e.id}`,
    parent: e.parent === null ? null : `b${e.parent}`,
    depth: e.depth,
    type: e.type,
    title: e.title,
    renamedFrom: e.renamedFrom,
    status: e.status,
    edited: e.edited,
    old: span(e.old),
    new: span(e.new),
    hunkIds,
  };
}

/** The file's blocks with the given hunks assigned to them (any hunks: a rebase's too); null trees give a note. */
export function fileBlocksOf(base: string | null, proposed: string | null, file: BlockFile, hunks: readonly Hunk[]): FileBlocks {
  const a = splitLines(base ?? '');
  const b = splitLines(proposed ?? '');
  const trees = treesOf(a, b, base ?? '', proposed ?? '', file);
  if (!trees)
    return {
      kind: null,
      blocks: [],
      looseHunkIds: hunks.map((h) => h.id),
      note: `${file.relPath} is not cut into blocks (only MEMORY.md, memory_summary.md, raw_memories.md and skills are).`,
    };
  const { outline } = diffBlockTrees(a, b, trees[0].root, trees[1].root);
  const owned = new Map<number, string[]>();
  const loose: string[] = [];
  for (const hunk of hunks) {
    const owner = ownerOf(hunk, outline);
    if (!owner) loose.push(hunk.id);
    else if (owned.has(owner.id)) owned.get(owner.id)?.push(hunk.id);
    else owned.set(owner.id, [hunk.id]);
  }
  return { kind: trees[0].kind, blocks: outline.map((e) => toReviewBlock(e, owned.get(e.id) ?? [])), looseHunkIds: loose, note: null };
}
