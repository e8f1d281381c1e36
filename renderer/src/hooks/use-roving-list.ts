// Roving tabindex for a list of buttons: one Tab stop for the whole list, arrows/Home/End/PageUp/PageDown inside it.
import { useCallback, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';

export interface RovingItemProps {
  ref: (element: HTMLElement | null) => void;
  tabIndex: 0 | -1;
  onFocus: (event: FocusEvent<HTMLElement>) => void;
}

export interface RovingList {
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  itemProps: (index: number) => RovingItemProps;
}

const PAGE = 10;

function targetIndex(key: string, current: number, count: number): number | null {
  switch (key) {
    case 'ArrowDown':
      return Math.min(count - 1, current + 1);
    case 'ArrowUp':
      return Math.max(0, current - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'PageDown':
      return Math.min(count - 1, current + PAGE);
    case 'PageUp':
      return Math.max(0, current - PAGE);
    default:
      return null;
  }
}

export function useRovingList(count: number): RovingList {
  const [active, setActive] = useState(0);
  const elements = useRef<Array<HTMLElement | null>>([]);
  // The list can shrink (another file opened): the Tab stop must stay on a row that exists.
  const current = Math.max(0, Math.min(active, count - 1));

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (event.altKey || event.ctrlKey || event.metaKey || count === 0) return;
      const focused = elements.current.findIndex((element) => element === event.target);
      const next = targetIndex(event.key, focused >= 0 ? focused : current, count);
      if (next === null) return;
      event.preventDefault();
      setActive(next);
      const element = elements.current[next];
      element?.focus();
      element?.scrollIntoView({ block: 'nearest' });
    },
    [count, current],
  );

  const itemProps = useCallback(
    (index: number): RovingItemProps => ({
      ref: (element) => {
        elements.current[index] = element;
      },
      tabIndex: index === current ? 0 : -1,
      onFocus: () => setActive(index),
    }),
    [current],
  );

  return { onKeyDown, itemProps };
}
