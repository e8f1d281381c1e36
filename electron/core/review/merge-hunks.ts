// Hunks of a rebased file: the merge's change blocks with each conflict as a hunk of its own, and whole-file conflicts.
import type { ConflictSide, Hunk } from '../../../shared/review';
import { buildHunk, type Bounds, CONTEXT_LINES, displayLine, hunkId, hunkLines, unifiedStart } from './hunks';
import { itemAt } from '../platform/indexed';
import { splitLines } from './lines';
import type { MergedBlock, MergeResult } from './merge';

/** The text of lines without their endings (a missing final newline is not marked: the side's range says where it is). */
function plain(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (const line of lines) displayLine('', line, out);
  return out.filter((line) => line !== '\\ No newline at end of file');
}

const side = (lines: readonly string[], idx: number, len: number): ConflictSide => ({
  start: unifiedStart(idx, len),
  lines: len,
  text: plain(lines.slice(idx, idx + len)),
});

/** Blocks closer than twice the context share a hunk, as in `computeHunks`; a conflict never shares one. */
function groupMarked(blocks: readonly MergedBlock[]): MergedBlock[][] {
  const groups: MergedBlock[][] = [];
  for (const block of blocks) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    const joins = group && last && !block.conflict && !last.conflict && block.oldIdx - (last.oldIdx + last.oldLen) <= 2 * CONTEXT_LINES;
    if (joins) group.push(block);
    else groups.push([block]);
  }
  return groups;
}

/** Context around each group, cut short where it would reach into the next hunk (only next to a conflict can it). */
function clippedBounds(oldLength: number, groups: readonly MergedBlock[][]): Bounds[] {
  let previousEnd = 0;
  return groups.map((group, i) => {
    const first = itemAt(group, 0);
    const last = itemAt(group, group.length - 1);
    const end = last.oldIdx + last.oldLen;
    const next = groups[i + 1]?.[0]?.oldIdx ?? oldLength;
    const oldFrom = Math.max(previousEnd, first.oldIdx - CONTEXT_LINES);
    const trailing = Math.min(CONTEXT_LINES, oldLength - end, next - end);
    previousEnd = end + trailing;
    return {
      oldFrom,
      oldTo: end + trailing,
      newFrom: first.newIdx - (first.oldIdx - oldFrom),
      newTo: last.newIdx + last.newLen + trailing,
    };
  });
}

function conflictHunk(merge: MergeResult, block: MergedBlock, conflict: NonNullable<MergedBlock['conflict']>, bounds: Bounds): Hunk {
  const { lines, raw, added, removed } = hunkLines(merge.theirs, merge.merged, [block], bounds);
  const baseRaw = merge.base.slice(conflict.baseIdx, conflict.baseIdx + conflict.baseLen).map((line) => `|${line}`);
  const oldLines = bounds.oldTo - bounds.oldFrom;
  const newLines = bounds.newTo - bounds.newFrom;
  const oldStart = unifiedStart(bounds.oldFrom, oldLines);
  return {
    id: hunkId('conflict', oldStart, oldLines, [...raw, ...baseRaw]),
    kind: 'conflict',
    oldStart,
    oldLines,
    newStart: unifiedStart(bounds.newFrom, newLines),
    newLines,
    lines,
    added,
    removed,
    conflict: {
      base: side(merge.base, conflict.baseIdx, conflict.baseLen),
      theirs: side(merge.theirs, block.oldIdx, block.oldLen),
      ours: side(merge.merged, block.newIdx, block.newLen),
      own: { start: unifiedStart(conflict.oursIdx, conflict.oursLen), lines: conflict.oursLen },
      absent: null,
    },
  };
}

/** The hunks turning theirs into the merged text: changes grouped as usual, each conflict alone. */
export function hunksOfMerge(merge: MergeResult): Hunk[] {
  const groups = groupMarked(merge.blocks);
  const bounds = clippedBounds(merge.theirs.length, groups);
  return groups.map((group, i) => {
    const first = itemAt(group, 0);
    const bound = itemAt(bounds, i);
    return first.conflict ? conflictHunk(merge, first, first.conflict, bound) : buildHunk(merge.theirs, merge.merged, group, bound);
  });
}

/**
 * One side has no file: deleted on disk while the proposal changes it (`absent: 'theirs'`), or changed on disk while
 * the proposal deletes it (`absent: 'ours'`). The whole file is the conflict; `both` cannot apply to it.
 */
export function wholeFileConflict(absent: 'theirs' | 'ours', base: string | null, present: string): Hunk {
  const all = splitLines(present);
  const baseLines = base === null ? [] : splitLines(base);
  const lines: string[] = [];
  for (const line of all) displayLine(absent === 'theirs' ? '+' : '-', line, lines);
  const count = all.length;
  const full = side(all, 0, count);
  const none: ConflictSide = { start: 0, lines: 0, text: [] };
  const ours = absent === 'theirs' ? full : none;
  const conflict = {
    base: side(baseLines, 0, baseLines.length),
    theirs: absent === 'theirs' ? none : full,
    ours,
    own: { start: ours.start, lines: ours.lines },
    absent,
  };
  const id = hunkId('conflict', absent === 'theirs' ? 0 : 1, absent === 'theirs' ? 0 : count, [absent, present, base ?? '']);
  if (absent === 'theirs')
    return {
      id,
      kind: 'conflict',
      oldStart: 0,
      oldLines: 0,
      newStart: unifiedStart(0, count),
      newLines: count,
      lines,
      added: count,
      removed: 0,
      conflict,
    };
  return {
    id,
    kind: 'conflict',
    oldStart: unifiedStart(0, count),
    oldLines: count,
    newStart: 0,
    newLines: 0,
    lines,
    added: 0,
    removed: count,
    conflict,
  };
}
