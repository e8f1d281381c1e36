// Roving tabindex for a list of buttons: one Tab stop for the whole list, arrows/Home/End/PageUp/PageDown inside it (keymap scope `list`).
import { useCallback, useRef, useState, type FocusEvent } from 'react';
import { useKeyScope } from '../keymap/use-keys';

export interface RovingItemProps {
  ref: (element: HTMLElement | null) => void;
  tabIndex: 0 | -1;
  onFocus: (event: FocusEvent<HTMLElement>) => void;
}

export interface RovingList {
  /** The list element: its keys are the keymap's `list.move` while the focus is inside it. */
  listRef: (element: HTMLElement | null) => void;
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

  const list = useRef<HTMLElement | null>(null);
  const listRef = useCallback((element: HTMLElement | null) => {
    list.current = element;
  }, []);
  useKeyScope(list, 'list', {
    'list.move': (event) => {
      if (count === 0) return false;
      const focused = elements.current.findIndex((element) => element === event.target);
      const next = targetIndex(event.key, focused >= 0 ? focused : current, count);
      if (next === null) return false;
      setActive(next);
      const element = elements.current[next];
      element?.focus();
      element?.scrollIntoView({ block: 'nearest' });
      return undefined;
    },
  });

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

  return { listRef, itemProps };
}
