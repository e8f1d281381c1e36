// Fixed-height windowing: which rows of a long list to mount for the current scroll position (the file tree's approach).
import { useLayoutEffect, useState, type RefObject, type UIEvent } from 'react';

/** Half-open range [start, end) of rows to mount, `overscan` rows beyond each edge of the viewport. */
export function fixedWindow(count: number, rowHeight: number, scrollTop: number, viewport: number, overscan: number): [number, number] {
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const last = Math.ceil((Math.max(0, scrollTop) + viewport) / rowHeight);
  return [Math.max(0, first - overscan), Math.min(count, last + overscan)];
}

export interface ScrollViewport {
  scrollTop: number;
  viewport: number;
  onScroll: (event: UIEvent<HTMLElement>) => void;
}

/** Tracks a scroller's position and height (ResizeObserver), so a window can be computed from them. */
export function useScrollViewport(ref: RefObject<HTMLElement | null>, fallbackHeight = 600): ScrollViewport {
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(fallbackHeight);
  useLayoutEffect(() => {
    const scroller = ref.current;
    if (!scroller) return undefined;
    const observer = new ResizeObserver(() => setViewport(scroller.clientHeight));
    observer.observe(scroller);
    setViewport(scroller.clientHeight);
    return () => observer.disconnect();
  }, [ref]);
  return { scrollTop, viewport, onScroll: (event) => setScrollTop(event.currentTarget.scrollTop) };
}
