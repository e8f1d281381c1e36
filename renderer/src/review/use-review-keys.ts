// The review panel's keys: j/k next/previous hunk, a accept, r reject, A accept every hunk of the file.
import { useCallback, type KeyboardEvent } from 'react';

export interface ReviewKeyActions {
  next: () => void;
  previous: () => void;
  accept: () => void;
  reject: () => void;
  acceptFile: () => void;
}

/** Typing in a field (the note composer, a filter, Monaco's hidden textarea) must never decide a hunk. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

export function useReviewKeys(actions: ReviewKeyActions, enabled: boolean) {
  return useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (!enabled || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      const action = { j: actions.next, k: actions.previous, a: actions.accept, r: actions.reject, A: actions.acceptFile }[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    },
    [actions, enabled],
  );
}
