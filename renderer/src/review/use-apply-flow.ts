// Apply, rebase and reject for the open proposal: saves pending decisions first, keeps the outcome or the error to show.
import { useState } from 'react';
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

  const apply = () => {
    if (!id) return;
    setOutcome(null);
    void (async () => {
      try {
        await decisions.flush();
        const applied = await applyMutation.mutateAsync({ id });
        setOutcome({ id, applied, error: null });
      } catch (error) {
        setOutcome({ id, applied: null, error: toStudioError(error) });
      }
    })();
  };

  const rebase = () => {
    if (!id) return;
    // Decisions not saved yet must reach the server first: the rebase carries the stored ones over.
    void decisions
      .flush()
      .catch(() => undefined)
      .then(() =>
        rebaseMutation.mutate(
          { id },
          {
            onSuccess: (result) => {
              decisions.reset();
              setOutcome(null);
              setRebased(result);
            },
          },
        ),
      );
  };

  const reject = () => {
    if (id) rejectMutation.mutate({ id });
  };

  return {
    applied: mine?.applied ?? null,
    error: mine?.error ?? null,
    applying: applyMutation.isPending,
    apply,
    rebase,
    rebasing: rebaseMutation.isPending,
    rebaseError: rebaseMutation.error,
    rebased: rebased && rebased.proposal.id === id ? rebased : null,
    reject,
    rejecting: rejectMutation.isPending,
    rejectError: rejectMutation.error,
  };
}
