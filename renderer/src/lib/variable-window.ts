// Windowing for lists whose items differ in height: estimated until drawn, then measured, so only the visible ones mount.
import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useScrollViewport } from './windowing';

export interface VariableWindow {
  /** Items to mount: [start, end). */
  start: number;
  end: number;
  /** Top offset of item `i` inside the scroller's content. */
  offsetOf: (i: number) => number;
  totalHeight: number;
  /** Attach to each mounted item: its height is measured and kept. */
  measure: (index: number) => (element: HTMLElement | null) => void;
  /** Scrolls so that item `i` is in view (at the top when it was not). */
  scrollToIndex: (i: number) => void;
  onScroll: ReturnType<typeof useScrollViewport>['onScroll'];
}

/** First index whose end is below `y` (binary search over the prefix sums). */
function firstBelow(offsets: Float64Array, count: number, y: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((offsets[mid + 1] as number) <= y) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function useVariableWindow(
  scroller: RefObject<HTMLElement | null>,
  count: number,
  estimate: (i: number) => number,
  overscan = 3,
): VariableWindow {
  const { scrollTop, viewport, onScroll } = useScrollViewport(scroller);
  // Measured heights as an immutable map: a new one only when a height changed, so the offsets follow it.
  const [heights, setHeights] = useState<ReadonlyMap<number, number>>(() => new Map());
  const estimateRef = useRef(estimate);
  estimateRef.current = estimate;
  const offsets = useMemo(() => {
    const out = new Float64Array(count + 1);
    for (let i = 0; i < count; i++) out[i + 1] = (out[i] as number) + (heights.get(i) ?? estimateRef.current(i));
    return out;
  }, [count, heights]);
  const start = Math.max(0, firstBelow(offsets, count, scrollTop) - overscan);
  const end = Math.min(count, firstBelow(offsets, count, scrollTop + viewport) + 1 + overscan);
  const elements = useRef(new Map<Element, number>());
  // Made on first use: item refs attach during the commit, before any effect of this hook has run.
  const observer = useRef<ResizeObserver | null>(null);
  const observe = (element: HTMLElement) => {
    observer.current ??= new ResizeObserver((entries) => {
      const measured: Array<[number, number]> = [];
      for (const entry of entries) {
        const index = elements.current.get(entry.target);
        const height = (entry.target as HTMLElement).offsetHeight;
        if (index !== undefined && height > 0) measured.push([index, height]);
      }
      setHeights((known) => {
        const changed = measured.filter(([index, height]) => known.get(index) !== height);
        return changed.length === 0 ? known : new Map([...known, ...changed]);
      });
    });
    observer.current.observe(element);
  };
  useLayoutEffect(() => () => observer.current?.disconnect(), []);
  const callbacks = useRef(new Map<number, (element: HTMLElement | null) => void>());
  const measure = useCallback((index: number) => {
    let callback = callbacks.current.get(index);
    if (!callback) {
      let current: HTMLElement | null = null;
      callback = (element) => {
        if (current) {
          observer.current?.unobserve(current);
          elements.current.delete(current);
        }
        current = element;
        if (!element) return;
        elements.current.set(element, index);
        observe(element);
      };
      callbacks.current.set(index, callback);
    }
    return callback;
  }, []);
  const scrollToIndex = useCallback(
    (i: number) => {
      const el = scroller.current;
      if (!el) return;
      const top = offsets[i] ?? 0;
      const bottom = offsets[i + 1] ?? top;
      if (top < el.scrollTop || bottom > el.scrollTop + el.clientHeight) el.scrollTop = top;
    },
    [offsets, scroller],
  );
  return { start, end, offsetOf: (i) => offsets[i] ?? 0, totalHeight: offsets[count] ?? 0, measure, scrollToIndex, onScroll };
}
