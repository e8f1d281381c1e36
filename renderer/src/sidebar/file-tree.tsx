// The windowed file tree: one scroller, absolutely positioned rows, only the visible files mounted.
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type Ref,
  type RefObject,
} from 'react';
import { visibleRowIndexes, type TreeModel, type TreeRow } from './tree-model';
import { TreeRowView } from './tree-row';
import { useTreeKeyboard } from './use-tree-keyboard';

export interface FileTreeProps {
  model: TreeModel;
  filtering: boolean;
  /** Key of the file shown in the main pane. */
  openedKey: string | null;
  /** Counts openings (a repeated opening of the same file reveals it again). */
  openedSeq: number | null;
  onOpen: (row: Extract<TreeRow, { type: 'file' }>) => void;
  onToggle: (row: TreeRow) => void;
  ref?: Ref<FileTreeHandle>;
}

export interface FileTreeHandle {
  /** Focuses the tree on its first file (used by ArrowDown in the filter box). */
  focusFirstFile(): void;
}

const rowId = (index: number) => `file-tree-row-${index}`;

/** The scroller's height and scroll position, kept true when the window resizes or the model shrinks. */
function useTreeViewport(scrollerRef: RefObject<HTMLDivElement | null>, totalHeight: number) {
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return undefined;
    const observer = new ResizeObserver(() => setViewport(scroller.clientHeight));
    observer.observe(scroller);
    setViewport(scroller.clientHeight);
    return () => observer.disconnect();
  }, [scrollerRef]);

  // The browser clamps scrollTop when the model shrinks (filtering, collapsing); window from the real value.
  useLayoutEffect(() => {
    if (scrollerRef.current) setScrollTop(scrollerRef.current.scrollTop);
  }, [scrollerRef, totalHeight]);
  return { scrollTop, setScrollTop, viewport };
}

/** Scrolls a row into view: just enough (arrow keys), or to the middle (a file opened from elsewhere). */
function useScrollToRow(scrollerRef: RefObject<HTMLDivElement | null>, model: TreeModel) {
  // Reads the model through a ref so the callback stays stable.
  const modelRef = useRef(model);
  modelRef.current = model;
  return useCallback(
    (index: number, centre = false) => {
      const scroller = scrollerRef.current;
      const row = modelRef.current.rows[index];
      if (!scroller || !row) return;
      const outside = row.top < scroller.scrollTop || row.top + row.height > scroller.scrollTop + scroller.clientHeight;
      if (centre && outside) scroller.scrollTop = Math.max(0, row.top + row.height / 2 - scroller.clientHeight / 2);
      else if (row.top < scroller.scrollTop) scroller.scrollTop = row.top;
      else if (row.top + row.height > scroller.scrollTop + scroller.clientHeight) {
        scroller.scrollTop = row.top + row.height - scroller.clientHeight;
      }
    },
    [scrollerRef],
  );
}

/**
 * Reveals the file opened from elsewhere (Rollouts, search, the palette, a pointer) once per opening: scrolled to and
 * made the active row. It waits until the row exists (its group unfolds, a hiding filter clears, the list arrives)
 * and the tree is on screen (another view may be showing), so later live updates never yank the scroll position.
 */
function useRevealOpened(
  scrollerRef: RefObject<HTMLDivElement | null>,
  model: TreeModel,
  viewport: number,
  opened: { key: string | null; seq: number | null },
  setActiveKey: (key: string | null) => void,
) {
  const reveal = useScrollToRow(scrollerRef, model);
  const pending = useRef<string | null>(null);
  // Where the opened row was revealed: a root listed above it later moves it, and it is revealed again there.
  const revealedAt = useRef<{ key: string; index: number } | null>(null);
  useEffect(() => {
    pending.current = opened.key;
  }, [opened.key, opened.seq]);
  useEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller || scroller.clientHeight === 0) return;
    const moved = revealedAt.current && revealedAt.current.key === opened.key ? revealedAt.current : null;
    const key = pending.current ?? moved?.key;
    if (!key) return;
    const index = model.rows.findIndex((row) => row.key === key);
    if (index < 0 || (!pending.current && index === moved?.index)) return;
    pending.current = null;
    revealedAt.current = { key, index };
    setActiveKey(key);
    reveal(index, true);
  }, [scrollerRef, model, viewport, opened.key, opened.seq, reveal, setActiveKey]);
  return reveal;
}

export function FileTree({ model, filtering, openedKey, openedSeq, onOpen, onToggle, ref }: FileTreeProps) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const { scrollTop, setScrollTop, viewport } = useTreeViewport(scrollerRef, model.totalHeight);
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const activeIndex = activeKey ? model.rows.findIndex((row) => row.key === activeKey) : -1;
  const reveal = useRevealOpened(scrollerRef, model, viewport, { key: openedKey, seq: openedSeq }, setActiveKey);

  const setActive = useCallback(
    (index: number) => {
      const row = model.rows[index];
      if (!row) return;
      setActiveKey(row.key);
      reveal(index);
    },
    [model, reveal],
  );

  const activate = useCallback(
    (row: TreeRow) => {
      if (row.type === 'file') onOpen(row);
      else if (row.type !== 'note') onToggle(row);
    },
    [onOpen, onToggle],
  );

  useTreeKeyboard(scrollerRef, { model, activeIndex, viewportHeight: viewport, setActive, onActivate: activate, onToggle });

  useImperativeHandle(
    ref,
    () => ({
      focusFirstFile() {
        const index = model.rows.findIndex((row) => row.type === 'file');
        scrollerRef.current?.focus();
        if (index >= 0) setActive(index);
      },
    }),
    [model, setActive],
  );

  const onFocus = (event: FocusEvent<HTMLDivElement>) => {
    // Entering the tree lands on the open file, or the first row, so arrows have a starting point.
    if (activeIndex >= 0) return;
    const opened = openedKey ? model.rows.findIndex((row) => row.key === openedKey) : -1;
    const start = opened >= 0 ? opened : model.rows.findIndex((row) => row.type !== 'note');
    const row = model.rows[start];
    if (!row) return;
    setActiveKey(row.key);
    // Scroll only for keyboard focus: a mouse press focuses the tree too, and scrolling between its
    // mousedown and mouseup would move the row away from the pointer and swallow the click.
    if (event.currentTarget.matches(':focus-visible')) reveal(start);
  };

  const onRowClick = (row: TreeRow) => {
    setActiveKey(row.key);
    activate(row);
  };

  const indexes = visibleRowIndexes(model, scrollTop, viewport, activeIndex);

  return (
    <div
      ref={scrollerRef}
      id="file-tree"
      className="tree-scroller"
      role="tree"
      aria-label="Memory files"
      tabIndex={0}
      aria-activedescendant={activeIndex >= 0 ? rowId(activeIndex) : undefined}
      onFocus={onFocus}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <div className="tree-canvas" style={{ height: model.totalHeight }}>
        {indexes.map((index) => {
          const row = model.rows[index];
          if (!row) return null;
          return (
            <TreeRowView
              key={row.key}
              row={row}
              id={rowId(index)}
              active={index === activeIndex}
              opened={row.type === 'file' && row.key === openedKey}
              filtering={filtering}
              onClick={onRowClick}
            />
          );
        })}
      </div>
    </div>
  );
}
