// The Review view: the proposals inbox (and the note composer) beside the proposal under review.
import { useEffect, useMemo, useState } from 'react';
import type { MemoryVersion } from '../../../shared/domain';
import { useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { ConnectAgent } from './connect-agent';
import { NoteComposer } from './note-composer';
import { ProposalDetail } from './proposal-detail';
import { ProposalInbox, sortProposals } from './proposal-inbox';

export interface ReviewPageProps {
  proposalId: string | null;
  onOpenProposal: (id: string | null) => void;
  onOpenHistory: () => void;
  colorScheme: ColorScheme;
  versions: readonly MemoryVersion[];
  preferred: MemoryVersion | null;
}

/** What opens above the inbox: the ad-hoc note composer, or Connect an agent. */
function Composer(props: {
  open: 'note' | 'connect' | null;
  versions: readonly MemoryVersion[];
  preferred: MemoryVersion | null;
  onClose: () => void;
  onProposed: (id: string) => void;
}) {
  if (props.open === 'note')
    return <NoteComposer versions={props.versions} preferred={props.preferred} onCancel={props.onClose} onProposed={props.onProposed} />;
  if (props.open === 'connect') return <ConnectAgent onCancel={props.onClose} onProposed={props.onProposed} />;
  return null;
}

export function ReviewPage({ proposalId, onOpenProposal, onOpenHistory, colorScheme, versions, preferred }: ReviewPageProps) {
  const list = useStudioQuery('review.list', {});
  const [composing, setComposing] = useState<'note' | 'connect' | null>(null);
  const proposals = useMemo(() => sortProposals(list.data?.proposals ?? []), [list.data]);
  const firstPending = proposals.find((p) => p.status === 'pending')?.id ?? null;
  const shownId = proposalId ?? firstPending;
  // Pin the first pending proposal once shown, so applying it keeps its outcome on screen instead of jumping on.
  useEffect(() => {
    if (!proposalId && firstPending) onOpenProposal(firstPending);
  }, [proposalId, firstPending, onOpenProposal]);
  return (
    <div className="review-layout" data-testid="review-view">
      <aside className="side-panel review-inbox" aria-label="Proposals">
        <header className="panel-header">
          <h2>
            Proposals <span className="muted">{list.data ? `${list.data.pendingCount} pending` : ''}</span>
          </h2>
          <span className="panel-actions">
            <button
              type="button"
              className="button button-small"
              data-testid="connect-agent-open"
              aria-expanded={composing === 'connect'}
              onClick={() => setComposing((open) => (open === 'connect' ? null : 'connect'))}
            >
              Connect an agent
            </button>
            <button
              type="button"
              className="button button-small"
              data-testid="new-note"
              aria-expanded={composing === 'note'}
              onClick={() => setComposing((open) => (open === 'note' ? null : 'note'))}
            >
              New note
            </button>
          </span>
        </header>
        <div className="panel-scroll">
          <Composer
            open={composing}
            versions={versions}
            preferred={preferred}
            onClose={() => setComposing(null)}
            onProposed={(id) => {
              setComposing(null);
              onOpenProposal(id);
            }}
          />
          {list.error ? (
            <ErrorPanel compact title="Cannot list the proposals" error={toStudioError(list.error)} onRetry={() => void list.refetch()} />
          ) : null}
          {list.data ? (
            <ProposalInbox proposals={proposals} selectedId={shownId} onSelect={onOpenProposal} />
          ) : list.isPending && !list.error ? (
            <LoadingState inline label="Reading proposals…" />
          ) : null}
        </div>
      </aside>
      <main className="review-main" aria-label="Proposal">
        {shownId ? (
          <ProposalDetail key={shownId} id={shownId} colorScheme={colorScheme} onOpenHistory={onOpenHistory} />
        ) : (
          <div className="main-message">
            <p className="muted">
              Nothing to review. Changes to memory arrive here as proposals: nothing reaches the disk until you apply it.
            </p>
          </div>
        )}
      </main>
    </div>
  );
}
