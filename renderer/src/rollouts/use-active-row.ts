// The rollout grid's keys on the keymap: one active row (by path, so it survives re-sorting), arrows and pages move it, Enter opens.
import { useCallback, useState, type FocusEvent, type RefObject } from 'react';
import type { RolloutRow } from '../../../shared/inspect';
import { useKeyScope } from '../keymap/use-keys';

export interface ActiveRowOptions {
  rows: readonly RolloutRow[];
  /** The grid element: its keys are the keymap's `grid` scope while the focus is on it. */
  scrollerRef: RefObject<HTMLElement | null>;
  rowHeight: number;
  /** Height of the sticky header above the first row, inside the scroller. */
  headerHeight: number;
  viewport: number;
  onOpen: (row: RolloutRow) => void;
}

export interface ActiveRow {
  activeIndex: number;
  setActivePath: (path: string | null) => void;
  onFocus: (event: FocusEvent<HTMLElement>) => void;
}

function nextIndex(key: string, current: number, count: number, page: number): number | null {
  if (key === 'ArrowDown') return Math.min(count - 1, current + 1);
  if (key === 'ArrowUp') return Math.max(0, current - 1);
  if (key === 'PageDown') return Math.min(count - 1, current + page);
  if (key === 'PageUp') return Math.max(0, current - page);
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}

export function useActiveRow({ rows, scrollerRef, rowHeight, headerHeight, viewport, onOpen }: ActiveRowOptions): ActiveRow {
  const [activePath, setActivePath] = useState<string | null>(null);
  const activeIndex = activePath ? rows.findIndex((row) => row.path === activePath) : -1;

  /** Scrolls just enough to show the row below the sticky header. */
  const reveal = useCallback(
    (index: number) => {
      const scroller = scrollerRef.current;
      if (!scroller) return;
      const top = index * rowHeight;
      if (top < scroller.scrollTop) scroller.scrollTop = top;
      else if (headerHeight + top + rowHeight > scroller.scrollTop + scroller.clientHeight) {
        scroller.scrollTop = headerHeight + top + rowHeight - scroller.clientHeight;
      }
    },
    [scrollerRef, rowHeight, headerHeight],
  );

  // Keys on the header's sort buttons are theirs: the grid's bindings act only on the grid element itself.
  const onGrid = (event: KeyboardEvent) => event.target === scrollerRef.current && rows.length > 0;
  useKeyScope(scrollerRef, 'grid', {
    'grid.open': (event) => {
      if (!onGrid(event)) return false;
      const row = rows[activeIndex];
      if (row) onOpen(row);
      return undefined;
    },
    'grid.move': (event) => {
      if (!onGrid(event)) return false;
      const page = Math.max(1, Math.floor((viewport - headerHeight) / rowHeight) - 1);
      const next = nextIndex(event.key, activeIndex, rows.length, page);
      if (next === null) return false;
      setActivePath(rows[next]?.path ?? null);
      reveal(next);
      return undefined;
    },
  });

  const onFocus = (event: FocusEvent<HTMLElement>) => {
    // Entering the grid lands on the first row, so arrows have a starting point.
    if (event.target === event.currentTarget && activeIndex < 0 && rows[0]) setActivePath(rows[0].path);
  };

  return { activeIndex, setActivePath, onFocus };
}
