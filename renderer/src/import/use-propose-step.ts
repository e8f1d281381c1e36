// Makes the import proposal when the wizard reaches Review without one (also after a resume), once per set of choices.
import { useCallback, useEffect, useRef, useState, type Dispatch } from 'react';
import type { ImportOutcome, ImportPlanInput } from '../../../shared/import';
import { useStudioMutation } from '../api/studio-query';
import type { WizardAction, WizardState } from './wizard-model';

export interface ProposeStep {
  /** The outcome for the current choices, or null (not proposed yet, or the choices changed since). */
  outcome: ImportOutcome | null;
  proposing: boolean;
  error: Error | null;
  retry: () => void;
}

export function useProposeStep(state: WizardState, input: ImportPlanInput, dispatch: Dispatch<WizardAction>): ProposeStep {
  const propose = useStudioMutation('import.propose');
  const reject = useStudioMutation('review.reject');
  const [outcome, setOutcome] = useState<{ serial: string; outcome: ImportOutcome } | null>(null);
  const tried = useRef<string | null>(null);
  const previous = useRef<string | null>(null);
  const serial = JSON.stringify(input);
  const wanted = state.step === 'review' && state.proposalId === null;

  if (state.proposalId) previous.current = state.proposalId;

  // Leaving Review allows a new attempt on the next visit (a retry after "nothing to import", or another import
  // with the same choices); back at Sources, an earlier outcome no longer applies.
  useEffect(() => {
    if (state.step !== 'review') tried.current = null;
    if (state.step === 'sources') setOutcome(null);
  }, [state.step]);

  useEffect(() => {
    if (!wanted || propose.isPending || tried.current === serial) return;
    tried.current = serial;
    const stale = previous.current;
    propose.mutate(JSON.parse(serial) as ImportPlanInput, {
      onSuccess: (result) => {
        setOutcome({ serial, outcome: result });
        if (result.proposal) dispatch({ type: 'proposal', id: result.proposal.id });
        // A proposal made for earlier choices is no longer what the person reviews: take it out of the inbox.
        if (stale && stale !== result.proposal?.id)
          reject.mutate({ id: stale, note: 'Replaced by a newer import proposal from the wizard.' }, { onError: () => undefined });
      },
    });
  }, [wanted, serial, propose, reject, dispatch]);

  const retry = useCallback(() => {
    tried.current = null;
    propose.reset();
  }, [propose]);

  return {
    outcome: outcome && outcome.serial === serial ? outcome.outcome : null,
    proposing: propose.isPending,
    error: wanted ? propose.error : null,
    retry,
  };
}
