// One file's three-way rebase (base = when proposed, theirs = the disk, ours = the proposal) as a new proposed content and hunks.
import type { Hunk } from '../../../shared/review';
import { computeFileHunks } from './hunks';
import { mergeTexts } from './merge';
import { hunksOfMerge, wholeFileConflict } from './merge-hunks';

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
 * `base`, `theirs` and `ours` are the file's contents (null = no file). A change one side made alone is kept; a region
 * both changed differently is a conflict hunk; a deletion against an edit is a whole-file conflict.
 */
export function threeWay(base: string | null, theirs: string | null, ours: string | null): ThreeWay {
  if (ours === base) return of(theirs, [], 'The proposal does not change this file any more than the disk already does.');
  if (ours === null) {
    if (theirs === null) return of(null, [], 'The file was deleted on disk, as the proposal does: nothing is left to do for it.');
    if (theirs === base) return of(null, computeFileHunks(theirs, null));
    return of(
      null,
      [wholeFileConflict('ours', base, theirs)],
      "The file changed on disk and the proposal deletes it: keep the disk's version (theirs), delete it (ours), or write your own.",
    );
  }
  if (theirs === null) {
    if (base === null) return of(ours, computeFileHunks(null, ours));
    return of(
      ours,
      [wholeFileConflict('theirs', base, ours)],
      'The file was deleted on disk and the proposal changes it: leave it deleted (theirs), create it again with the proposal (ours), or write your own.',
    );
  }
  if (theirs === ours) return of(ours, []);
  const merge = mergeTexts(base ?? '', theirs, ours);
  return of(merge.merged.join(''), hunksOfMerge(merge), merge.eolNote);
}
