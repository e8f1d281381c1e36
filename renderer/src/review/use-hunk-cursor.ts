// The file shown in a proposal review and its active hunk: j/k move, a/r decide and move on, A accepts the whole file.
import { useState } from 'react';
import type { Hunk, HunkDecision, Proposal, ProposalFile } from '../../../shared/review';
import type { DecisionsState } from './use-decisions';

export function useHunkCursor(proposal: Proposal | undefined, decisions: Pick<DecisionsState, 'set'>) {
  const [selected, setSelected] = useState(proposal?.files[0]?.ord ?? 0);
  const [active, setActive] = useState(0);
  const file: ProposalFile | undefined = proposal?.files.find((f) => f.ord === selected) ?? proposal?.files[0];
  const hunks = file?.hunks ?? [];
  const current = Math.min(active, Math.max(hunks.length - 1, 0));
  const decide = (hunk: Hunk, decision: HunkDecision) => file && decisions.set(file.ord, [hunk.id], decision);
  const decideActive = (decision: HunkDecision) => {
    const hunk = hunks[current];
    if (!hunk) return;
    decide(hunk, decision);
    setActive(Math.min(current + 1, hunks.length - 1));
  };
  const actions = {
    next: () => setActive(Math.min(current + 1, hunks.length - 1)),
    previous: () => setActive(Math.max(current - 1, 0)),
    accept: () => decideActive('accept'),
    reject: () => decideActive('reject'),
    acceptFile: () => file && decisions.set(file.ord, hunks.map((h) => h.id), 'accept'),
  };
  const select = (ord: number) => {
    setSelected(ord);
    setActive(0);
  };
  return { file, hunks, current, setActive, decide, actions, select };
}

export type HunkCursor = ReturnType<typeof useHunkCursor>;
