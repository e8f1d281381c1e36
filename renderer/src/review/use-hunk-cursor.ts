// The file shown in a proposal review and its active hunk: j/k move, a/r decide a change, t/o/b resolve a conflict, A accepts the file.
import { useState } from 'react';
import type { ConflictResolution, Hunk, HunkDecision, Proposal, ProposalFile } from '../../../shared/review';
import type { DecisionsState } from './use-decisions';

const isConflict = (hunk: Hunk | undefined) => hunk?.kind === 'conflict';

export function useHunkCursor(proposal: Proposal | undefined, decisions: Pick<DecisionsState, 'set' | 'of'>) {
  const [selected, setSelected] = useState(proposal?.files[0]?.ord ?? 0);
  const [active, setActive] = useState(0);
  const file: ProposalFile | undefined = proposal?.files.find((f) => f.ord === selected) ?? proposal?.files[0];
  const hunks = file?.hunks ?? [];
  const current = Math.min(active, Math.max(hunks.length - 1, 0));
  const decide = (hunk: Hunk, decision: HunkDecision, edit?: string) => file && decisions.set(file.ord, [hunk.id], decision, edit);
  const advance = () => setActive(Math.min(current + 1, hunks.length - 1));
  /** a/r decide changes only: on a conflict they do nothing (accept and reject never resolve a conflict). */
  const decideActive = (decision: 'accept' | 'reject') => {
    const hunk = hunks[current];
    if (!hunk || isConflict(hunk)) return;
    decide(hunk, decision);
    advance();
  };
  const resolveActive = (resolution: Exclude<ConflictResolution, 'edit'>) => {
    const hunk = hunks[current];
    if (!hunk || !isConflict(hunk) || (resolution === 'both' && hunk.conflict?.absent)) return;
    decide(hunk, resolution);
    advance();
  };
  /** The next conflict without a resolution after the active hunk (wrapping), or the next conflict at all. */
  const nextConflict = () => {
    const chosen = file ? decisions.of(file.ord) : {};
    const order = hunks.map((_, i) => (current + 1 + i) % Math.max(hunks.length, 1));
    const target = order.find((i) => isConflict(hunks[i]) && !chosen[hunks[i]?.id ?? '']) ?? order.find((i) => isConflict(hunks[i]));
    if (target !== undefined) setActive(target);
  };
  const actions = {
    next: advance,
    previous: () => setActive(Math.max(current - 1, 0)),
    accept: () => decideActive('accept'),
    reject: () => decideActive('reject'),
    /** Every change of the file; conflicts keep waiting for their own resolution. */
    acceptFile: () => file && decisions.set(file.ord, hunks.filter((h) => !isConflict(h)).map((h) => h.id), 'accept'),
    theirs: () => resolveActive('theirs'),
    ours: () => resolveActive('ours'),
    both: () => resolveActive('both'),
    nextConflict,
  };
  const select = (ord: number) => {
    setSelected(ord);
    setActive(0);
  };
  return { file, hunks, current, activeHunk: hunks[current], setActive, decide, actions, select };
}

export type HunkCursor = ReturnType<typeof useHunkCursor>;
