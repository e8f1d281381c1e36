// The review panel's keys: j/k hunks, a/r accept/reject a change, A the file's changes, t/o/b resolve a conflict, e edit it, n next conflict.
import { useCallback, type KeyboardEvent } from 'react';

export interface ReviewKeyActions {
  next: () => void;
  previous: () => void;
  accept: () => void;
  reject: () => void;
  acceptFile: () => void;
  theirs?: () => void;
  ours?: () => void;
  both?: () => void;
  /** Opens the hand editor of the active conflict. */
  edit?: () => void;
  nextConflict?: () => void;
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
      const keys: Record<string, (() => void) | undefined> = {
        j: actions.next,
        k: actions.previous,
        a: actions.accept,
        r: actions.reject,
        A: actions.acceptFile,
        t: actions.theirs,
        o: actions.ours,
        b: actions.both,
        e: actions.edit,
        n: actions.nextConflict,
      };
      const action = keys[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    },
    [actions, enabled],
  );
}
