// Agents' proposals in the app: the Review tab's badges (pending, and new from agents) and marking one seen when opened.
import { useEffect } from 'react';
import type { Proposal } from '../../../shared/review';
import { useStudioMutation, useStudioQuery } from '../api/studio-query';

/** The Review tab's badges: how many proposals are pending, and how many of them agents made that nobody opened yet. */
export function ReviewBadge() {
  const list = useStudioQuery('review.list', {}).data;
  const count = list?.pendingCount ?? 0;
  const fromAgents = list?.agentNewCount ?? 0;
  if (count === 0) return null;
  return (
    <>
      <span className="view-tab-count" data-testid="review-badge" aria-label={`${count} pending`}>
        {count}
      </span>
      {fromAgents > 0 ? (
        <span
          className="view-tab-count view-tab-count-agent"
          data-testid="agent-badge"
          aria-label={`${fromAgents} new from agents`}
          title={`${fromAgents} new proposal${fromAgents === 1 ? '' : 's'} from agents`}
        >
          {fromAgents} new from agents
        </span>
      ) : null}
    </>
  );
}

/** Opening an agent's proposal is what makes it no longer new (the Review tab's "from agents" badge counts the rest). */
export function useMarkSeen(proposal: Proposal | undefined) {
  const seen = useStudioMutation('review.seen');
  const { mutate } = seen;
  const unseen = proposal?.agent && !proposal.agent.seen ? proposal.id : null;
  useEffect(() => {
    if (unseen) mutate({ id: unseen });
  }, [unseen, mutate]);
}
