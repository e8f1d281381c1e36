// The proposals inbox: the pending ones first (newest first), then a collapsible "Done" group with the applied and
// rejected ones; title, source (an agent by name, marked new until opened), files and +/- per proposal. An applied
// proposal's +/- are what Apply wrote (its accepted hunks), a pending one's what it proposes.
import { useState } from 'react';
import type { ProposalSummary } from '../../../shared/review';
import { useRovingList, type RovingItemProps } from '../hooks/use-roving-list';
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

function Row({ p, selected, item }: { p: ProposalSummary; selected: boolean; item: RovingItemProps & { onClick: () => void } }) {
  return (
    <button
      type="button"
      {...item}
      className="inbox-row"
      aria-current={selected ? 'true' : undefined}
      data-testid="proposal-item"
      data-id={p.id}
      data-status={p.status}
      title={p.status === 'applied' ? 'The lines Apply wrote (the accepted changes)' : undefined}
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
  );
}

/** One group of rows: its own Tab stop, arrows inside. */
function Rows({ proposals, selectedId, onSelect, label }: ProposalInboxProps & { label: string }) {
  const roving = useRovingList(proposals.length);
  return (
    <ul className="inbox-list" aria-label={label} ref={roving.listRef}>
      {proposals.map((p, index) => (
        <li key={p.id}>
          <Row p={p} selected={p.id === selectedId} item={{ ...roving.itemProps(index), onClick: () => onSelect(p.id) }} />
        </li>
      ))}
    </ul>
  );
}

/** "1 applied, 2 rejected". */
function doneCounts(done: readonly ProposalSummary[]): string {
  const applied = done.filter((p) => p.status === 'applied').length;
  return `${applied.toLocaleString()} applied, ${(done.length - applied).toLocaleString()} rejected`;
}

export function ProposalInbox({ proposals, selectedId, onSelect }: ProposalInboxProps) {
  const [doneOpen, setDoneOpen] = useState(true);
  if (proposals.length === 0) {
    return <p className="panel-empty muted">No proposals yet. Edit a file in the Files view and press Propose, or write an ad-hoc note.</p>;
  }
  const pending = proposals.filter((p) => p.status === 'pending');
  const done = proposals.filter((p) => p.status !== 'pending');
  return (
    <>
      <section className="inbox-group" data-testid="proposal-pending" aria-labelledby="inbox-pending-title">
        <h3 className="inbox-group-title" id="inbox-pending-title">
          Pending <span className="muted">{pending.length.toLocaleString()}</span>
        </h3>
        {pending.length > 0 ? (
          <Rows proposals={pending} selectedId={selectedId} onSelect={onSelect} label="Pending proposals" />
        ) : (
          <p className="panel-empty muted small">Nothing waits for review.</p>
        )}
      </section>
      {done.length > 0 ? (
        <section className="inbox-group" data-testid="proposal-done" aria-labelledby="inbox-done-title">
          <h3 className="inbox-group-title" id="inbox-done-title">
            <button
              type="button"
              className="inbox-group-toggle"
              data-testid="proposal-done-toggle"
              aria-expanded={doneOpen}
              onClick={() => setDoneOpen((open) => !open)}
            >
              <span aria-hidden="true">{doneOpen ? '▾' : '▸'}</span> Done <span className="muted">{done.length.toLocaleString()}</span>{' '}
              <span className="muted small">({doneCounts(done)})</span>
            </button>
          </h3>
          {doneOpen ? <Rows proposals={done} selectedId={selectedId} onSelect={onSelect} label="Applied and rejected proposals" /> : null}
        </section>
      ) : null}
    </>
  );
}
