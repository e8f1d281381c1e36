// The line diff of one file as its review items (hunks, a moved block as one), windowed: only the visible ones are drawn.
import { memo, useEffect, useRef, useState } from 'react';
import { focusIsLost } from './use-landing-focus';
import type { DecisionMap, Hunk, HunkDecision } from '../../../shared/review';
import { useVariableWindow } from '../lib/variable-window';
import { ConflictActions, ConflictLines, conflictBadge } from './conflict-hunk';
import { diffRows, rowCount, type DiffRow } from './diff-rows';
import type { ReviewItem } from './review-items';

/** Rows a hunk shows before "Show all": a rebuilt block can be thousands of lines. */
const ROW_LIMIT = 80;
const ROW_HEIGHT = 19;

export interface HunkViewProps {
  items: readonly ReviewItem[];
  decisions: DecisionMap;
  active: number;
  readOnly: boolean;
  onActivate: (index: number) => void;
  /** Accept or reject every change hunk of the item (both halves of a move). */
  onDecide: (index: number, decision: 'accept' | 'reject') => void;
  onResolve: (hunk: Hunk, decision: HunkDecision) => void;
  onEditConflict: (index: number) => void;
  /** The hand-written lines of a conflict resolved with `edit`, shown on its card. */
  editOf?: (hunkId: string) => string | undefined;
  /** Said when there is nothing to show. */
  empty: string;
}

function where(hunk: Hunk): string {
  const [start, count] = hunk.newLines > 0 || hunk.kind === 'create' ? [hunk.newStart, hunk.newLines] : [hunk.oldStart, hunk.oldLines];
  const side = hunk.newLines > 0 || hunk.kind === 'create' ? '' : ' (old)';
  if (count === 0) return `after line ${start}${side}`;
  return count === 1 ? `line ${start}${side}` : `lines ${start}–${start + count - 1}${side}`;
}

function itemTitle(item: ReviewItem): string {
  const hunk = item.hunks[0] as Hunk;
  if (hunk.kind === 'create') return `New file (+${hunk.added})`;
  if (hunk.kind === 'delete') return `Delete the file (−${hunk.removed})`;
  if (hunk.conflict)
    return hunk.conflict.absent
      ? hunk.conflict.absent === 'theirs'
        ? 'Conflict: deleted on disk, changed by the proposal'
        : 'Conflict: changed on disk, deleted by the proposal'
      : `Conflict at ${where(hunk)}`;
  if (item.moved) {
    const b = item.block;
    const from = b?.old ? `line ${b.old.start}` : '?';
    const to = b?.new ? `line ${b.new.start}` : '?';
    return `Moved from ${from} to ${to}${b?.edited ? ', and changed' : ''}`;
  }
  return where(hunk);
}

/** The item's decision when all its change hunks agree; undefined when undecided or mixed. */
export function itemDecision(item: ReviewItem, decisions: DecisionMap): HunkDecision | undefined {
  const first = decisions[item.key];
  return item.hunks.every((h) => decisions[h.id] === first) ? first : undefined;
}

function Badge({ item, decision }: { item: ReviewItem; decision: HunkDecision | undefined }) {
  if (item.hunks[0]?.kind === 'conflict') {
    const b = conflictBadge(decision);
    return <span className={`badge badge-small ${b.className}`}>{b.label}</span>;
  }
  if (decision === 'accept') return <span className="badge badge-small badge-ok">Accepted</span>;
  if (decision === 'reject') return <span className="badge badge-small badge-error">Rejected</span>;
  return <span className="badge badge-small badge-muted">Undecided</span>;
}

/** Says that the item holds a secret, and what, before any line is read: core found them (`Hunk.secrets`). */
function SecretBadge({ item }: { item: ReviewItem }) {
  const labels = [...new Set(item.hunks.flatMap((h) => (h.secrets ?? []).map((s) => s.label)))];
  if (labels.length === 0) return null;
  return (
    <span className="badge badge-small badge-error" data-testid="hunk-secret" title={`Holds ${labels.join(', ')}`}>
      holds a secret
    </span>
  );
}

function Line({ row }: { row: DiffRow }) {
  const cls = `${row.sign === '+' ? 'diff-row diff-add' : row.sign === '-' ? 'diff-row diff-del' : 'diff-row'}${row.secret ? ' diff-secret' : ''}`;
  return (
    <div
      className={cls}
      data-testid={row.secret ? 'secret-line' : undefined}
      title={row.secret ? `This line holds ${row.secret}` : undefined}
    >
      <span className="diff-no" aria-hidden="true">
        {row.oldNo ?? ''}
      </span>
      <span className="diff-no" aria-hidden="true">
        {row.newNo ?? ''}
      </span>
      <span className="diff-sign" aria-label={row.sign === '+' ? 'added' : row.sign === '-' ? 'removed' : undefined}>
        {row.sign === ' ' ? '' : row.sign === '-' ? '−' : '+'}
      </span>
      <span className="diff-text">
        {row.segments
          ? row.segments.map((s, i) =>
              s.changed ? (
                <mark key={i} className="diff-word">
                  {s.text}
                </mark>
              ) : (
                <span key={i}>{s.text}</span>
              ),
            )
          : row.text}
        {row.noEol ? <span className="diff-noeol muted"> (no newline at end)</span> : null}
        {row.secret ? <span className="badge badge-small badge-error diff-secret-badge">secret: {row.secret}</span> : null}
      </span>
    </div>
  );
}

function HunkRows({ hunk, expanded, onExpand }: { hunk: Hunk; expanded: boolean; onExpand: () => void }) {
  const total = rowCount(hunk);
  const rows = diffRows(hunk, expanded ? Infinity : ROW_LIMIT);
  return (
    <div className="diff-rows" role="table" aria-label={`Lines ${where(hunk)}`}>
      {rows.map((row, i) => (
        <Line key={i} row={row} />
      ))}
      {total > rows.length ? (
        <button type="button" className="link-button diff-more" onClick={onExpand}>
          Show all {total} lines ({total - rows.length} more)
        </button>
      ) : null}
    </div>
  );
}

interface ItemProps {
  item: ReviewItem;
  index: number;
  count: number;
  decision: HunkDecision | undefined;
  /** The hand resolution of a conflict decided `edit`. */
  resolution: string | undefined;
  active: boolean;
  readOnly: boolean;
  expanded: boolean;
  handlers: Pick<HunkViewProps, 'onActivate' | 'onDecide' | 'onResolve' | 'onEditConflict'> & { onExpand: (key: string) => void };
  measure: (element: HTMLElement | null) => void;
  top: number;
}

/**
 * The focus follows the active item (j/k, a/r move it) while it sits on an item of the same list, or nowhere (the item it
 * was on scrolled out of the window and unmounted); elsewhere (a field, the inbox) it stays put.
 */
function useFollowingFocus(active: boolean) {
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!active || !element) return;
    const focused = element.ownerDocument.activeElement;
    const onSibling =
      focused !== element &&
      focused?.matches('[data-testid="hunk-item"]') &&
      focused.closest('.hunk-view') === element.closest('.hunk-view');
    if (onSibling || focusIsLost(element.ownerDocument)) element.focus({ preventScroll: true });
  }, [active]);
  return ref;
}

/** Accept and Reject for a change (a conflict has its own actions). */
function DecideActions({ decision, onDecide }: { decision: HunkDecision | undefined; onDecide: (choice: 'accept' | 'reject') => void }) {
  return (
    <span className="hunk-actions">
      <button
        type="button"
        className="button button-small"
        data-testid="accept-hunk"
        aria-pressed={decision === 'accept'}
        onClick={(e) => (e.stopPropagation(), onDecide('accept'))}
      >
        Accept <kbd>a</kbd>
      </button>
      <button
        type="button"
        className="button button-small"
        data-testid="reject-hunk"
        aria-pressed={decision === 'reject'}
        onClick={(e) => (e.stopPropagation(), onDecide('reject'))}
      >
        Reject <kbd>r</kbd>
      </button>
    </span>
  );
}

const Item = memo(function Item({
  item,
  index,
  count,
  decision,
  resolution,
  active,
  readOnly,
  expanded,
  handlers,
  measure,
  top,
}: ItemProps) {
  const hunk = item.hunks[0] as Hunk;
  const conflict = hunk.kind === 'conflict';
  const block = item.block;
  const ref = useFollowingFocus(active);
  return (
    <div className="change-slot" ref={measure} style={{ transform: `translateY(${top}px)` }} role="listitem">
      <article
        className={`change-item hunk-${decision ?? 'undecided'}${conflict ? ' hunk-conflict' : ''}${active ? ' hunk-active' : ''}`}
        data-testid="hunk-item"
        data-hunk-id={hunk.id}
        data-kind={hunk.kind}
        data-moved={item.moved ? 'true' : undefined}
        data-block={block?.title}
        data-decision={decision ?? 'undecided'}
        data-secret={item.hunks.some((h) => (h.secrets ?? []).length > 0) ? 'true' : undefined}
        aria-current={active ? 'true' : undefined}
        aria-label={`Hunk ${index + 1} of ${count}: ${itemTitle(item)}, ${decision ?? 'undecided'}`}
        // One Tab stop for the list: the active item (the review keys act on it).
        tabIndex={active ? 0 : -1}
        ref={ref}
        onClick={() => handlers.onActivate(index)}
      >
        <header className="change-head">
          <span className="change-n muted small">
            {index + 1}/{count}
          </span>
          <span className="change-title">
            {item.path.length > 0 ? <span className="change-block">{item.path.join(' › ')}</span> : null}
            <span className="change-where">{itemTitle(item)}</span>
          </span>
          {item.moved ? <span className="badge badge-small badge-info">moved</span> : null}
          <SecretBadge item={item} />
          <span className="small">
            <span className="text-ok">+{item.hunks.reduce((n, h) => n + h.added, 0)}</span>{' '}
            <span className="text-danger">−{item.hunks.reduce((n, h) => n + h.removed, 0)}</span>
          </span>
          {readOnly && !decision ? null : <Badge item={item} decision={decision} />}
          {readOnly ? null : conflict ? (
            <ConflictActions hunk={hunk} decision={decision} onDecide={handlers.onResolve} onEdit={() => handlers.onEditConflict(index)} />
          ) : (
            <DecideActions decision={decision} onDecide={(choice) => handlers.onDecide(index, choice)} />
          )}
        </header>
        {conflict ? (
          <ConflictLines hunk={hunk} resolution={decision === 'edit' ? resolution : undefined} />
        ) : (
          item.hunks.map((h) => <HunkRows key={h.id} hunk={h} expanded={expanded} onExpand={() => handlers.onExpand(item.key)} />)
        )}
      </article>
    </div>
  );
});

const estimate = (item: ReviewItem | undefined) =>
  40 + (item ? item.hunks.reduce((n, h) => n + Math.min(ROW_LIMIT, rowCount(h)) * ROW_HEIGHT + 8, 0) : 0);

export function HunkView(props: HunkViewProps) {
  const { items, decisions, active, readOnly, onActivate, onDecide, onResolve, onEditConflict, editOf, empty } = props;
  const scroller = useRef<HTMLDivElement | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const win = useVariableWindow(scroller, items.length, (i) => estimate(items[i]));
  const handlersRef = useRef({ onActivate, onDecide, onResolve, onEditConflict });
  handlersRef.current = { onActivate, onDecide, onResolve, onEditConflict };
  const [handlers] = useState(() => ({
    onActivate: (i: number) => handlersRef.current.onActivate(i),
    onDecide: (i: number, d: 'accept' | 'reject') => handlersRef.current.onDecide(i, d),
    onResolve: (h: Hunk, d: HunkDecision) => handlersRef.current.onResolve(h, d),
    onEditConflict: (i: number) => handlersRef.current.onEditConflict(i),
    onExpand: (key: string) => setExpanded((s) => new Set(s).add(key)),
  }));
  // Only a new active item scrolls (j/k, a click in the outline); measuring heights while the person scrolls must not.
  const scrollTo = useRef(win.scrollToIndex);
  scrollTo.current = win.scrollToIndex;
  useEffect(() => scrollTo.current(active), [active]);
  if (items.length === 0) return <p className="panel-empty muted">{empty}</p>;
  const shown: number[] = [];
  for (let i = win.start; i < win.end; i++) shown.push(i);
  return (
    <div className="hunk-view" ref={scroller} onScroll={win.onScroll} data-testid="hunk-view" data-count={items.length}>
      <div className="hunk-view-content" style={{ height: win.totalHeight }} role="list" aria-label="Hunks">
        {shown.map((i) => {
          const item = items[i] as ReviewItem;
          return (
            <Item
              key={item.key}
              item={item}
              index={i}
              count={items.length}
              decision={itemDecision(item, decisions)}
              resolution={item.hunks[0]?.kind === 'conflict' ? editOf?.(item.hunks[0].id) : undefined}
              active={i === active}
              readOnly={readOnly}
              expanded={expanded.has(item.key)}
              handlers={handlers}
              measure={win.measure(i)}
              top={win.offsetOf(i)}
            />
          );
        })}
      </div>
    </div>
  );
}
