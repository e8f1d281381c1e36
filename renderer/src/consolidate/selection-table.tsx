// The rows Codex's phase 2 would select, as a compact windowed table (thousands of rows stay cheap to show).
import { useRef } from 'react';
import type { SelectedInput } from '../../../shared/consolidate';
import { fixedWindow, useScrollViewport } from '../lib/windowing';
import { formatBytes, formatTime, shortId } from '../lib/format';

const ROW_HEIGHT = 26;
const HEADER_HEIGHT = 28;
const OVERSCAN = 8;

/** Codex's timestamps are Unix seconds; anything already in milliseconds passes through. */
export function toMs(time: number): number {
  return time < 100_000_000_000 ? time * 1000 : time;
}

function usage(row: SelectedInput): string {
  if (row.usageCount === null) return '—';
  return row.lastUsage === null ? String(row.usageCount) : `${row.usageCount} · ${formatTime(toMs(row.lastUsage))}`;
}

function Row({ row, index }: { row: SelectedInput; index: number }) {
  return (
    <div
      className="selection-row"
      role="row"
      aria-rowindex={index + 2}
      style={{ top: index * ROW_HEIGHT, height: ROW_HEIGHT }}
      data-testid="selection-row"
    >
      <div role="gridcell" className="selection-cell mono" title={row.threadId}>
        {shortId(row.threadId)}
      </div>
      <div role="gridcell" className="selection-cell mono" title={`rollout_summaries/${row.stem}.md`}>
        {row.stem}
        {row.previouslySelected ? null : <span className="badge badge-small badge-info selection-new">new</span>}
      </div>
      <div role="gridcell" className="selection-cell">
        {formatTime(toMs(row.sourceUpdatedAt))}
      </div>
      <div role="gridcell" className="selection-cell num">
        {usage(row)}
      </div>
      <div role="gridcell" className="selection-cell num">
        {formatBytes(row.bytes)}
      </div>
    </div>
  );
}

export function SelectionTable({ rows }: { rows: readonly SelectedInput[] }) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const { scrollTop, viewport, onScroll } = useScrollViewport(scrollerRef, 300);
  const [start, end] = fixedWindow(rows.length, ROW_HEIGHT, scrollTop - HEADER_HEIGHT, viewport, OVERSCAN);
  const shown = rows.slice(start, end);
  return (
    <div
      ref={scrollerRef}
      className="selection-scroller"
      role="grid"
      aria-label="Selected stage-1 memories"
      aria-rowcount={rows.length + 1}
      tabIndex={0}
      onScroll={onScroll}
      data-testid="selection-table"
    >
      <div className="selection-row selection-header" role="row" aria-rowindex={1} style={{ height: HEADER_HEIGHT }}>
        <div role="columnheader" className="selection-cell">
          Thread
        </div>
        <div role="columnheader" className="selection-cell">
          Rollout summary
        </div>
        <div role="columnheader" className="selection-cell">
          Updated
        </div>
        <div role="columnheader" className="selection-cell num">
          Usage
        </div>
        <div role="columnheader" className="selection-cell num">
          Size
        </div>
      </div>
      <div className="selection-canvas" role="rowgroup" style={{ height: rows.length * ROW_HEIGHT }}>
        {shown.map((row, offset) => (
          <Row key={row.threadId} row={row} index={start + offset} />
        ))}
      </div>
    </div>
  );
}
