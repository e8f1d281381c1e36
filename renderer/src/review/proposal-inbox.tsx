// The proposals inbox: pending first, then the rest newest first; title, source (an agent by name, marked new until
// opened), files and +/- per proposal.
import type { ProposalSummary } from '../../../shared/review';
import { useRovingList } from '../hooks/use-roving-list';
import { formatTime, plural } from '../lib/format';
import { sourceLabel } from './proposal-parts';

export interface ProposalInboxProps {
  proposals: readonly ProposalSummary[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}

export function sortProposals(proposals: readonly ProposalSummary[]): ProposalSummary[] {
  return [...proposals].sort((a, b) => Number(b.status === 'pending') - Number(a.status === 'pending') || b.createdAt - a.createdAt);
}

export function ProposalInbox({ proposals, selectedId, onSelect }: ProposalInboxProps) {
  const roving = useRovingList(proposals.length);
  if (proposals.length === 0) {
    return <p className="panel-empty muted">No proposals yet. Edit a file in the Files view and press Propose, or write an ad-hoc note.</p>;
  }
  return (
    <ul className="inbox-list" aria-label="Proposals" ref={roving.listRef}>
      {proposals.map((p, index) => (
        <li key={p.id}>
          <button
            type="button"
            {...roving.itemProps(index)}
            className="inbox-row"
            aria-current={p.id === selectedId ? 'true' : undefined}
            data-testid="proposal-item"
            data-id={p.id}
            data-status={p.status}
            onClick={() => onSelect(p.id)}
          >
            <span className="inbox-title">{p.title}</span>
            <span className="inbox-meta">
              <span className="badge badge-small" data-testid="proposal-item-source">
                {sourceLabel(p)}
              </span>
              {p.agent && !p.agent.seen && p.status === 'pending' ? (
                <span className="badge badge-small badge-info" data-testid="agent-new">
                  new
                </span>
              ) : null}
              {p.status === 'pending' ? null : <span className="badge badge-small badge-muted">{p.status}</span>}
              <span className="muted">{plural(p.fileCount, 'file')}</span>
              <span className="text-ok">+{p.added}</span>
              <span className="text-danger">−{p.removed}</span>
            </span>
            <span className="muted small">{formatTime(p.createdAt)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
