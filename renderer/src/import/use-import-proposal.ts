// The import proposal shared by the Review and Apply steps: the proposal, its decisions, the result and the Apply flow.
import type { UseQueryResult } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import type { Proposal, ProposalResult, StaleFile } from '../../../shared/review';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { applyBlocked, summarizeApply, type ApplySummary } from '../review/apply-summary';
import { useApplyFlow, type ApplyFlow } from '../review/use-apply-flow';
import { useDecisions, type DecisionsState } from '../review/use-decisions';

export interface ImportProposal {
  id: string | null;
  query: UseQueryResult<Proposal, Error>;
  proposal: Proposal | undefined;
  decisions: DecisionsState;
  result: UseQueryResult<ProposalResult, Error>;
  flow: ApplyFlow;
  summary: ApplySummary | null;
  /** Files whose disk content moved on since the proposal (rebase first). */
  stale: readonly StaleFile[];
  /** Why Apply must wait (stale, unresolved conflicts), or null. */
  blocked: string | null;
  /** Accepts every change hunk of every file (an import is usually taken whole); conflicts keep their own decision. */
  acceptAll: () => void;
}

export function useImportProposal(id: string | null): ImportProposal {
  const query = useStudioQuery('review.get', id ? { id } : skipToken);
  const proposal = query.data;
  const decisions = useDecisions(proposal);
  const result = useStudioQuery('review.result', id ? { id, content: false } : skipToken);
  const flow = useApplyFlow(proposal, decisions);
  const data: ProposalResult | undefined = result.data;
  const summary = useMemo(() => (data ? summarizeApply(data) : null), [data]);
  const staleness = useStudioQuery('review.stale', id && proposal?.status === 'pending' ? { id } : skipToken);
  const stale = staleness.data?.stale ?? [];
  const { set } = decisions;
  const acceptAll = useCallback(() => {
    for (const file of proposal?.files ?? [])
      set(
        file.ord,
        file.hunks.filter((hunk) => hunk.kind !== 'conflict').map((hunk) => hunk.id),
        'accept',
      );
  }, [proposal, set]);
  return { id, query, proposal, decisions, result, flow, summary, stale, blocked: applyBlocked(stale, data), acceptAll };
}

/** Why Next is not allowed at the Review step, or null. */
export function reviewBlocked(state: ImportProposal): string | null {
  const { proposal, decisions, summary } = state;
  if (!proposal) return 'Making the proposal…';
  if (proposal.status !== 'pending') return `This proposal is ${proposal.status}: go back and propose again.`;
  if (decisions.saving) return 'Saving decisions…';
  if (!summary || state.result.isFetching) return 'Working out what Apply writes…';
  if (state.blocked) return `${state.blocked}.`;
  // The consolidation enqueue alone is not an import: at least one file change must be accepted.
  const writes = state.result.data?.files.some((file) => file.action !== 'unchanged') ?? false;
  if (summary.empty || !writes) return 'Accept the changes to import (Accept all, or a per hunk): undecided hunks are not written.';
  return null;
}
