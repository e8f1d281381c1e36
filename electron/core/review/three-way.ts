// One file's three-way rebase (base = when proposed, theirs = the disk, ours = the proposal) as a new proposed content and hunks.
import type { Hunk } from '../../../shared/review';
import { splitLines } from './lines';
import { mergeTexts } from './merge';
import { hunksOfMerge, wholeFileConflict } from './merge-hunks';
import { computeFileHunks } from './hunks';
import { markHunksOf, secretLinesByText, type SecretLines } from './secret-lines';

export type ThreeWayKind = 'nothing-left' | 'merged' | 'conflicts';

export interface ThreeWay {
  /** The new proposed content against theirs (null = delete). */
  proposed: string | null;
  hunks: Hunk[];
  kind: ThreeWayKind;
  /** What happened, in a sentence, when it is not an ordinary merge (deletions, line endings). */
  note: string | null;
}

function of(proposed: string | null, hunks: Hunk[], note: string | null = null): ThreeWay {
  const kind = hunks.some((h) => h.kind === 'conflict') ? 'conflicts' : hunks.length === 0 ? 'nothing-left' : 'merged';
  return { proposed, hunks, kind, note };
}

/**
 * A created or deleted file as one hunk, marked, as computeReviewHunks gives it (without loading the block diff, which a
 * merge never needs: a rebase in its own process loaded the parsers only for these two cases).
 */
function wholeFile(a: readonly string[], b: readonly string[], from: string | null, to: string | null, marks?: SecretLines): Hunk[] {
  return markHunksOf(a, b, computeFileHunks(from, to), marks);
}

/** The secret lines of a merge's two sides, when the texts are stored ones: their masked lines, found by text. */
function given(a: readonly string[], b: readonly string[], masked: ReadonlyMap<string, string> | undefined): SecretLines | undefined {
  return masked ? { old: secretLinesByText(a, masked), new: secretLinesByText(b, masked) } : undefined;
}

/**
 * `base`, `theirs` and `ours` are the file's contents (null = no file). A change one side made alone is kept; a region
 * both changed differently is a conflict hunk; a deletion against an edit is a whole-file conflict. The hunks' secret
 * lines are scanned, unless `masked` is given (stored texts: each masked line's text -> what it held), so the marks
 * survive masking.
 */
export function threeWay(base: string | null, theirs: string | null, ours: string | null, masked?: ReadonlyMap<string, string>): ThreeWay {
  if (ours === base) return of(theirs, [], 'The proposal does not change this file any more than the disk already does.');
  if (ours === null) {
    if (theirs === null) return of(null, [], 'The file was deleted on disk, as the proposal does: nothing is left to do for it.');
    const a = splitLines(theirs);
    if (theirs === base) return of(null, wholeFile(a, [], theirs, null, given(a, [], masked)));
    return of(
      null,
      markHunksOf(a, [], [wholeFileConflict('ours', base, theirs)], given(a, [], masked)),
      "The file changed on disk and the proposal deletes it: keep the disk's version (theirs), delete it (ours), or write your own.",
    );
  }
  if (theirs === null) {
    const b = splitLines(ours);
    if (base === null) return of(ours, wholeFile([], b, null, ours, given([], b, masked)));
    return of(
      ours,
      markHunksOf([], b, [wholeFileConflict('theirs', base, ours)], given([], b, masked)),
      'The file was deleted on disk and the proposal changes it: leave it deleted (theirs), create it again with the proposal (ours), or write your own.',
    );
  }
  if (theirs === ours) return of(ours, []);
  const merge = mergeTexts(base ?? '', theirs, ours);
  // The merge's lines are marked as any hunks are; a conflict's lines stay in one hunk, resolved as a whole.
  const marks = given(merge.theirs, merge.merged, masked);
  return of(merge.merged.join(''), markHunksOf(merge.theirs, merge.merged, hunksOfMerge(merge), marks), merge.eolNote);
}
