// The Coverage view's session table: windowed fixed-height rows (4,000+ sessions), one active row moved by the keymap.
import { useEffect, useLayoutEffect, useRef, type FocusEvent } from 'react';
import type { CoverageThread } from '../../../shared/coverage';
import { useKeyScope } from '../keymap/use-keys';
import { formatUnix, shortId } from '../lib/format';
import { fixedWindow, useScrollViewport } from '../lib/windowing';
import { defaultDirection, stageLabels, stageShortLabels, stageTone, type CoverageSort, type CoverageSortKey } from './coverage-model';

export interface CoverageTableProps {
  rows: readonly CoverageThread[];
  selectedId: string | null;
  onSelect: (threadId: string) => void;
  /** Enter on the active row: show its details (the pane takes the focus). */
  onOpen: (threadId: string) => void;
  sort: CoverageSort;
  onSort: (sort: CoverageSort) => void;
  /** Changes when the order or the filter changes: the table then scrolls back to the top. */
  resetKey: string;
}

export const ROW_HEIGHT = 30;
const HEADER_HEIGHT = 32;
const OVERSCAN = 8;
const rowId = (index: number) => `coverage-row-${index}`;
const columns = ['thread', 'source', 'cwd', 'updated', 'stage', 'detail', 'citations'] as const;
const columnLabels: Record<(typeof columns)[number], string> = {
  thread: 'Thread',
  source: 'Source',
  cwd: 'Working directory',
  updated: 'Updated',
  stage: 'Stage',
  detail: 'What happened',
  citations: 'Citations',
};
const sortable: Partial<Record<(typeof columns)[number], CoverageSortKey>> = { updated: 'updated', stage: 'stage' };

function nextIndex(key: string, current: number, count: number, page: number): number | null {
  if (key === 'ArrowDown' || key === 'j') return Math.min(count - 1, current + 1);
  if (key === 'ArrowUp' || key === 'k') return Math.max(0, current - 1);
  if (key === 'PageDown') return Math.min(count - 1, current + page);
  if (key === 'PageUp') return Math.max(0, current - page);
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

function Header({ sort, onSort }: Pick<CoverageTableProps, 'sort' | 'onSort'>) {
  return (
    <div className="coverage-header-row" role="row" aria-rowindex={1} style={{ height: HEADER_HEIGHT }}>
      {columns.map((column) => {
        const key = sortable[column];
        if (!key)
          return (
            <div key={column} role="columnheader" className={`coverage-cell coverage-col-${column}`}>
              {columnLabels[column]}
            </div>
          );
        const active = sort.key === key;
        const next = active ? (sort.direction === 'asc' ? 'desc' : 'asc') : defaultDirection[key];
        return (
          <div
            key={column}
            role="columnheader"
            className={`coverage-cell coverage-col-${column}`}
            aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
          >
            <button
              type="button"
              className="sort-button"
              data-testid="coverage-sort"
              data-sort={key}
              onClick={() => onSort({ key, direction: next })}
            >
              {columnLabels[column]}
              <span className="sort-arrow" aria-hidden="true">
                {active ? (sort.direction === 'asc' ? '▲' : '▼') : ''}
              </span>
            </button>
          </div>
        );
      })}
    </div>
  );
}

function Row({ row, index, active, onClick }: { row: CoverageThread; index: number; active: boolean; onClick: () => void }) {
  const citations = row.output?.usageCount ?? null;
  return (
    <div
      id={rowId(index)}
      role="row"
      aria-rowindex={index + 2}
      aria-selected={active}
      className={active ? 'coverage-row is-active' : 'coverage-row'}
      style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT }}
      data-testid="coverage-row"
      data-thread-id={row.threadId}
      data-stage={row.stage}
      onClick={onClick}
    >
      <div role="gridcell" className="coverage-cell coverage-col-thread" title={row.threadId}>
        {shortId(row.threadId)}
      </div>
      <div role="gridcell" className="coverage-cell coverage-col-source" title={row.source ?? row.sourceLabel}>
        {row.sourceLabel}
      </div>
      <div role="gridcell" className="coverage-cell coverage-col-cwd" title={row.cwd ?? undefined}>
        {/* The folder's own name is at the end: the cell cuts from the start (see coverage.css). */}
        {row.cwd ? <bdi>{row.cwd}</bdi> : <span className="muted">—</span>}
      </div>
      <div role="gridcell" className="coverage-cell coverage-col-updated" title={row.updatedAt?.iso}>
        {formatUnix(row.updatedAt, '—')}
      </div>
      <div role="gridcell" className="coverage-cell coverage-col-stage">
        <span className={`badge badge-small ${stageTone[row.stage]}`} data-testid="stage-badge" title={stageLabels[row.stage]}>
          {stageShortLabels[row.stage]}
        </span>
      </div>
      <div role="gridcell" className="coverage-cell coverage-col-detail" title={row.detail}>
        {row.detail}
      </div>
      <div role="gridcell" className="coverage-cell coverage-col-citations num">
        {citations === null ? <span className="muted">—</span> : citations.toLocaleString()}
      </div>
    </div>
  );
}

/** Rows to mount: the window around the viewport, plus the active row wherever it is (aria-activedescendant needs it). */
function mountedIndexes(count: number, scrollTop: number, viewport: number, activeIndex: number): number[] {
  const [start, end] = fixedWindow(count, ROW_HEIGHT, scrollTop - HEADER_HEIGHT, viewport, OVERSCAN);
  const indexes: number[] = [];
  for (let i = start; i < end; i += 1) indexes.push(i);
  if (activeIndex >= 0 && (activeIndex < start || activeIndex >= end)) indexes.push(activeIndex);
  return indexes;
}

/** Scrolls just enough to show the row below the sticky header. */
function reveal(scroller: HTMLElement | null, index: number): void {
  if (!scroller) return;
  const top = index * ROW_HEIGHT;
  if (top < scroller.scrollTop) scroller.scrollTop = top;
  else if (HEADER_HEIGHT + top + ROW_HEIGHT > scroller.scrollTop + scroller.clientHeight)
    scroller.scrollTop = HEADER_HEIGHT + top + ROW_HEIGHT - scroller.clientHeight;
}

export function CoverageTable({ rows, selectedId, onSelect, onOpen, sort, onSort, resetKey }: CoverageTableProps) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const { scrollTop, viewport, onScroll } = useScrollViewport(scrollerRef);
  const activeIndex = selectedId === null ? -1 : rows.findIndex((row) => row.threadId === selectedId);

  // Keys on the header's sort buttons are theirs: the table's bindings act only on the table element itself.
  const onTable = (event: KeyboardEvent) => event.target === scrollerRef.current && rows.length > 0;
  useKeyScope(scrollerRef, 'coverage', {
    'coverage.move': (event) => {
      if (!onTable(event)) return false;
      const page = Math.max(1, Math.floor((viewport - HEADER_HEIGHT) / ROW_HEIGHT) - 1);
      const next = nextIndex(event.key, activeIndex, rows.length, page);
      const row = next === null ? undefined : rows[next];
      if (next === null || !row) return false;
      onSelect(row.threadId);
      reveal(scrollerRef.current, next);
      return undefined;
    },
    'coverage.open': (event) => {
      const row = rows[activeIndex];
      if (!onTable(event) || !row) return false;
      onOpen(row.threadId);
      return undefined;
    },
  });

  // A new order or filter starts from the top (a refresh keeps the place); the selection stays if still listed, and is
  // shown: on coming back to the view, after a pick outside the table (aging out), after the order changed.
  const activeRef = useRef(activeIndex);
  activeRef.current = activeIndex;
  useEffect(() => {
    if (!scrollerRef.current) return;
    scrollerRef.current.scrollTop = 0;
    if (activeRef.current >= 0) reveal(scrollerRef.current, activeRef.current);
  }, [resetKey]);
  useLayoutEffect(() => {
    if (activeIndex >= 0) reveal(scrollerRef.current, activeIndex);
    // Only when the selection changes (a key press reveals it already; a scroll by hand must not be undone).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selectedId]);

  const onFocus = (event: FocusEvent<HTMLElement>) => {
    // Entering the table lands on the first row, so the keys have a starting point.
    if (event.target === event.currentTarget && activeIndex < 0 && rows[0]) onSelect(rows[0].threadId);
  };

  return (
    <div
      ref={scrollerRef}
      className="coverage-scroller"
      role="grid"
      aria-label="Sessions and their stage in the memory pipeline"
      aria-rowcount={rows.length + 1}
      aria-colcount={columns.length}
      aria-activedescendant={activeIndex >= 0 ? rowId(activeIndex) : undefined}
      tabIndex={0}
      data-testid="coverage-table"
      onFocus={onFocus}
      onScroll={onScroll}
    >
      <Header sort={sort} onSort={onSort} />
      <div className="coverage-canvas" role="rowgroup" style={{ height: rows.length * ROW_HEIGHT }}>
        {mountedIndexes(rows.length, scrollTop, viewport, activeIndex).map((index) => {
          const row = rows[index];
          if (!row) return null;
          return <Row key={row.threadId} row={row} index={index} active={index === activeIndex} onClick={() => onSelect(row.threadId)} />;
        })}
      </div>
    </div>
  );
}
