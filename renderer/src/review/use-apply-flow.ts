// Apply, rebase and reject for the open proposal: saves pending decisions first, keeps the outcome or the error to show.
import { useRef, useState } from 'react';
import type { AppliedProposal, Proposal, RebaseOutcome } from '../../../shared/review';
import type { StudioError } from '../../../shared/result';
import { useStudioMutation } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import type { DecisionsState } from './use-decisions';

export interface ApplyFlow {
  applied: AppliedProposal | null;
  error: StudioError | null;
  applying: boolean;
  apply: () => void;
  rebase: () => void;
  rebasing: boolean;
  rebaseError: Error | null;
  /** What the last rebase of this proposal did, file by file. */
  rebased: RebaseOutcome | null;
  reject: () => void;
  rejecting: boolean;
  rejectError: Error | null;
}

export function useApplyFlow(proposal: Proposal | undefined, decisions: DecisionsState): ApplyFlow {
  const applyMutation = useStudioMutation('review.apply');
  const rebaseMutation = useStudioMutation('review.rebase');
  const rejectMutation = useStudioMutation('review.reject');
  const [outcome, setOutcome] = useState<{ id: string; applied: AppliedProposal | null; error: StudioError | null } | null>(null);
  const [rebased, setRebased] = useState<RebaseOutcome | null>(null);
  const id = proposal?.id ?? null;
  const mine = outcome && outcome.id === id ? outcome : null;

  // Apply and rebase each wait for the decisions to be saved before their request goes: a second press in that time (a
  // double click, Enter twice) must not send a second request, whose Conflict would replace the first one's outcome.
  const busy = useRef(false);
  const [starting, setStarting] = useState<'apply' | 'rebase' | null>(null);
  const once = (kind: 'apply' | 'rebase', work: () => Promise<void>) => {
    if (busy.current) return;
    busy.current = true;
    setStarting(kind);
    void work().finally(() => {
      busy.current = false;
      setStarting(null);
    });
  };

  const apply = () => {
    if (!id) return;
    once('apply', async () => {
      setOutcome(null);
      try {
        await decisions.flush();
        const applied = await applyMutation.mutateAsync({ id });
        setOutcome({ id, applied, error: null });
      } catch (error) {
        setOutcome({ id, applied: null, error: toStudioError(error) });
      }
    });
  };

  const rebase = () => {
    if (!id) return;
    once('rebase', async () => {
      // Decisions not saved yet must reach the server first: the rebase carries the stored ones over.
      await decisions.flush().catch(() => undefined);
      // A failed rebase shows through the mutation's error.
      const result = await rebaseMutation.mutateAsync({ id }).catch(() => null);
      if (!result) return;
      decisions.reset();
      setOutcome(null);
      setRebased(result);
    });
  };

  const reject = () => {
    if (id) rejectMutation.mutate({ id });
  };

  return {
    applied: mine?.applied ?? null,
    error: mine?.error ?? null,
    applying: applyMutation.isPending || starting === 'apply',
    apply,
    rebase,
    rebasing: rebaseMutation.isPending || starting === 'rebase',
    rebaseError: rebaseMutation.error,
    rebased: rebased && rebased.proposal.id === id ? rebased : null,
    reject,
    rejecting: rejectMutation.isPending,
    rejectError: rejectMutation.error,
  };
}
