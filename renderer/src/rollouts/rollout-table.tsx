// The windowed rollout table: a sticky sortable header and fixed-height rows, only those near the viewport mounted.
import { useEffect, useRef } from 'react';
import type { RolloutRow } from '../../../shared/inspect';
import { formatTime, shortId } from '../lib/format';
import { fixedWindow, useScrollViewport } from '../lib/windowing';
import { defaultDirection, sortLabels, type SortKey, type SortState } from './rollout-rows';
import { useActiveRow } from './use-active-row';

export interface RolloutTableProps {
  rows: readonly RolloutRow[];
  sort: SortState;
  onSort: (sort: SortState) => void;
  onOpen: (row: RolloutRow) => void;
  /** Changes when the order or the filter changes: the table then scrolls back to the top. */
  resetKey: string;
}

export const ROW_HEIGHT = 30;
const HEADER_HEIGHT = 32;
const OVERSCAN = 8;
const rowId = (index: number) => `rollout-row-${index}`;

function formatUpdated(updatedAt: string | null): string {
  const ms = updatedAt ? Date.parse(updatedAt) : Number.NaN;
  return Number.isNaN(ms) ? (updatedAt ?? '—') : formatTime(ms);
}

function HeaderCell({ column, sort, onSort }: { column: SortKey; sort: SortState; onSort: (sort: SortState) => void }) {
  const active = sort.key === column;
  const next = active ? (sort.direction === 'asc' ? 'desc' : 'asc') : defaultDirection[column];
  return (
    <div
      role="columnheader"
      className={`rollout-cell rollout-col-${column}`}
      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button
        type="button"
        className="sort-button"
        data-testid="sort-button"
        data-sort={column}
        onClick={() => onSort({ key: column, direction: next })}
      >
        {sortLabels[column]}
        <span className="sort-arrow" aria-hidden="true">
          {active ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
        </span>
      </button>
    </div>
  );
}

const columns = ['date', 'project', 'branch', 'title', 'usage', 'citations'] as const;

function Header({ sort, onSort }: Pick<RolloutTableProps, 'sort' | 'onSort'>) {
  return (
    <div className="rollout-header" role="row" aria-rowindex={1} style={{ height: HEADER_HEIGHT }}>
      {columns.map((column) =>
        column === 'title' ? (
          <div key={column} role="columnheader" className="rollout-cell rollout-col-title">
            Title
          </div>
        ) : (
          <HeaderCell key={column} column={column} sort={sort} onSort={onSort} />
        ),
      )}
    </div>
  );
}

function Row({ row, index, active, onClick }: { row: RolloutRow; index: number; active: boolean; onClick: () => void }) {
  return (
    <div
      id={rowId(index)}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={active}
      className={active ? 'rollout-row is-active' : 'rollout-row'}
      style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT }}
      data-testid="rollout-row"
      data-path={row.path}
      data-updated-at={row.updatedAt ?? ''}
      title={row.path}
      onClick={onClick}
    >
      <div role="gridcell" className="rollout-cell rollout-col-date" title={row.updatedAt ?? undefined}>
        {formatUpdated(row.updatedAt)}
      </div>
      <div role="gridcell" className="rollout-cell rollout-col-project" title={row.cwd ?? row.project ?? undefined}>
        {row.project ?? <span className="muted">—</span>}
      </div>
      <div role="gridcell" className="rollout-cell rollout-col-branch" title={row.gitBranch ?? undefined}>
        {row.gitBranch ? <code>{row.gitBranch}</code> : <span className="muted">—</span>}
      </div>
      <div role="gridcell" className="rollout-cell rollout-col-title" title={row.title ?? row.path}>
        {row.title ?? <span className="muted">{row.path}</span>}
        {row.threadId ? <span className="muted rollout-thread"> {shortId(row.threadId)}</span> : null}
      </div>
      <div role="gridcell" className="rollout-cell rollout-col-usage num">
        {row.dbUsageCount ?? <span className="muted">—</span>}
      </div>
      <div role="gridcell" className="rollout-cell rollout-col-citations num">
        {row.citations === 0 ? <span className="muted">0</span> : row.citations}
      </div>
    </div>
  );
}

/** Rows to mount: the window around the viewport, plus the keyboard-active row wherever it is. */
function mountedIndexes(count: number, scrollTop: number, viewport: number, activeIndex: number): number[] {
  const [start, end] = fixedWindow(count, ROW_HEIGHT, scrollTop - HEADER_HEIGHT, viewport, OVERSCAN);
  const indexes: number[] = [];
  for (let i = start; i < end; i += 1) indexes.push(i);
  if (activeIndex >= 0 && (activeIndex < start || activeIndex >= end)) indexes.push(activeIndex);
  return indexes;
}

export function RolloutTable({ rows, sort, onSort, onOpen, resetKey }: RolloutTableProps) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const { scrollTop, viewport, onScroll } = useScrollViewport(scrollerRef);
  const active = useActiveRow({ rows, scrollerRef, rowHeight: ROW_HEIGHT, headerHeight: HEADER_HEIGHT, viewport, onOpen });

  // A new order or filter starts from the top (a live refresh keeps the place); the active row stays if still listed.
  useEffect(() => {
    if (scrollerRef.current) scrollerRef.current.scrollTop = 0;
  }, [resetKey]);

  return (
    <div
      ref={scrollerRef}
      className="rollout-scroller"
      role="grid"
      aria-label="Rollout summaries"
      aria-rowcount={rows.length + 1}
      aria-colcount={columns.length}
      aria-activedescendant={active.activeIndex >= 0 ? rowId(active.activeIndex) : undefined}
      tabIndex={0}
      data-testid="rollout-table"
      onFocus={active.onFocus}
      onScroll={onScroll}
    >
      <Header sort={sort} onSort={onSort} />
      <div className="rollout-canvas" role="rowgroup" style={{ height: rows.length * ROW_HEIGHT }}>
        {mountedIndexes(rows.length, scrollTop, viewport, active.activeIndex).map((index) => {
          const row = rows[index];
          if (!row) return null;
          const open = () => {
            active.setActivePath(row.path);
            onOpen(row);
          };
          return <Row key={row.path} row={row} index={index} active={index === active.activeIndex} onClick={open} />;
        })}
      </div>
    </div>
  );
}
