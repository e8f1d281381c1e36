// The structured view: a file's blocks (task groups, summary sections and entries, raw memories) with what happened to each,
// and Accept / Reject per block; windowed, so a MEMORY.md of a thousand task groups lists as fast as one of ten.
import { memo, useMemo, useRef, useState } from 'react';
import type { DecisionMap, FileBlocks, ReviewBlock } from '../../../shared/review';
import { fixedWindow, useScrollViewport } from '../lib/windowing';
import type { ReviewItems } from './review-items';

const ROW = 30;
const NO_IDS: readonly string[] = [];

export interface BlockOutlineProps {
  blocks: FileBlocks | undefined;
  loading: boolean;
  items: ReviewItems;
  decisions: DecisionMap;
  /** The block of the active item (highlighted). */
  activeBlock: string | null;
  readOnly: boolean;
  onShow: (itemIndex: number) => void;
  onDecide: (hunkIds: readonly string[], decision: 'accept' | 'reject') => void;
}

const statusLabel: Record<ReviewBlock['status'], string> = {
  unchanged: 'unchanged',
  added: 'added',
  removed: 'removed',
  changed: 'changed',
  moved: 'moved',
};

function decided(ids: readonly string[], decisions: DecisionMap): string {
  const accepted = ids.filter((id) => decisions[id] === 'accept').length;
  const rejected = ids.filter((id) => decisions[id] === 'reject').length;
  if (ids.length === 0) return '';
  if (accepted === ids.length) return 'accepted';
  if (rejected === ids.length) return 'rejected';
  return accepted + rejected === 0 ? 'undecided' : 'partly';
}

interface RowProps extends Pick<BlockOutlineProps, 'items' | 'decisions' | 'readOnly'> {
  block: ReviewBlock;
  ids: readonly string[];
  top: number;
  active: boolean;
  /** Stable across renders, so a row re-renders only when its own props change (j/k move the active one). */
  actions: Pick<BlockOutlineProps, 'onShow' | 'onDecide'>;
}

const Row = memo(function Row({ block, ids, top, active, actions, ...props }: RowProps) {
  const state = decided(ids, props.decisions);
  // The block is marked when a hunk of it shows a secret line. An added secret line is never accepted with its block:
  // the block's Accept decides the rest, the line waits for its own (removing one, a redaction, is accepted with it).
  const secret = ids.filter((id) => props.items.secretIds.has(id));
  const adding = ids.filter((id) => props.items.addsSecretIds.has(id));
  const acceptable = ids.filter((id) => !props.items.addsSecretIds.has(id));
  const first = ids.map((id) => props.items.indexOf.get(id)).find((i) => i !== undefined);
  const status = block.status === 'moved' && block.edited ? 'moved, changed' : statusLabel[block.status];
  return (
    <li
      className={`block-row block-${block.status}${active ? ' block-active' : ''}`}
      style={{ transform: `translateY(${top}px)`, paddingLeft: 6 + block.depth * 14 }}
      data-testid="block-row"
      data-block-id={block.id}
      data-status={block.status}
      data-title={block.title}
      data-decision={state || undefined}
    >
      <button
        type="button"
        className="block-name"
        disabled={first === undefined}
        onClick={() => first !== undefined && actions.onShow(first)}
        title={block.renamedFrom ? `${block.title} (was ${block.renamedFrom})` : block.title}
      >
        <span className={`badge badge-small block-badge-${block.status}`}>{status}</span> {block.title}
        {block.renamedFrom ? <span className="muted small"> (was {block.renamedFrom})</span> : null}
      </button>
      {secret.length > 0 ? (
        <span
          className="badge badge-small badge-error"
          data-testid="block-secret"
          title={
            adding.length > 0
              ? `${secret.length} hunk(s) of this block show a secret line; ${adding.length} add one: decide each on its own (Accept on the block leaves them)`
              : `${secret.length} hunk(s) of this block show a secret line (kept or removed, shown masked)`
          }
        >
          secret
        </span>
      ) : null}
      {state && state !== 'undecided' ? <span className={`small block-state-${state}`}>{state}</span> : null}
      {!props.readOnly && ids.length > 0 ? (
        <span className="hunk-actions">
          <button
            type="button"
            className="button button-small"
            data-testid="accept-block"
            aria-pressed={state === 'accepted'}
            disabled={acceptable.length === 0}
            onClick={() => actions.onDecide(acceptable, 'accept')}
            title={
              adding.length > 0
                ? `Accept the ${acceptable.length} hunk(s) of this block without its added secret line(s)`
                : `Accept the ${ids.length} hunk(s) of this block`
            }
          >
            ✓
          </button>
          <button
            type="button"
            className="button button-small"
            data-testid="reject-block"
            aria-pressed={state === 'rejected'}
            onClick={() => actions.onDecide(ids, 'reject')}
            title={`Reject the ${ids.length} hunk(s) of this block`}
          >
            ✗
          </button>
        </span>
      ) : null}
    </li>
  );
});

export function BlockOutline(props: BlockOutlineProps) {
  const { blocks, loading, items } = props;
  const [showAll, setShowAll] = useState(false);
  const scroller = useRef<HTMLDivElement | null>(null);
  const { scrollTop, viewport, onScroll } = useScrollViewport(scroller);
  const all = blocks?.blocks;
  const shown = useMemo(() => (showAll ? (all ?? []) : (all ?? []).filter((b) => b.status !== 'unchanged')), [all, showAll]);
  const hidden = (all?.length ?? 0) - shown.length;
  const [start, end] = fixedWindow(shown.length, ROW, scrollTop, viewport, 8);
  const rows = shown.slice(start, end);
  const latest = useRef(props);
  latest.current = props;
  const [actions] = useState<RowProps['actions']>(() => ({
    onShow: (index) => latest.current.onShow(index),
    onDecide: (ids, decision) => latest.current.onDecide(ids, decision),
  }));
  return (
    <section className="block-outline" aria-label="Blocks" data-testid="block-outline" data-kind={blocks?.kind ?? 'none'}>
      <header className="block-outline-header small">
        <strong>Blocks</strong>
        {blocks?.kind ? (
          <span className="muted">
            {shown.filter((b) => b.status !== 'unchanged').length} changed{hidden > 0 ? `, ${hidden} unchanged` : ''}
          </span>
        ) : null}
        {hidden > 0 || showAll ? (
          <button type="button" className="link-button" onClick={() => setShowAll((v) => !v)}>
            {showAll ? 'Only changes' : 'Show all'}
          </button>
        ) : null}
      </header>
      {loading && !blocks ? <p className="muted small block-note">Matching blocks…</p> : null}
      {blocks?.note ? <p className="muted small block-note">{blocks.note}</p> : null}
      <div className="block-scroll" ref={scroller} onScroll={onScroll}>
        <ol className="block-list" style={{ height: shown.length * ROW }}>
          {rows.map((block, k) => (
            <Row
              key={block.id}
              block={block}
              ids={items.subtree.get(block.id) ?? NO_IDS}
              top={(start + k) * ROW}
              active={block.id === props.activeBlock}
              items={items}
              decisions={props.decisions}
              readOnly={props.readOnly}
              actions={actions}
            />
          ))}
        </ol>
      </div>
    </section>
  );
}
