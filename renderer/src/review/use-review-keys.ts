// The review panel's keys on the keymap (scope `review`): j/k hunks, a/r accept/reject, A the file, t/o/b/e/n conflicts.
import type { RefObject } from 'react';
import { useKeyScope } from '../keymap/use-keys';

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

/** Typing in a field (the note composer, a filter, Monaco's hidden textarea) never decides a hunk: the keymap leaves text entry alone. */
export function useReviewKeys(panel: RefObject<HTMLElement | null>, actions: ReviewKeyActions, enabled: boolean): void {
  useKeyScope(
    panel,
    'review',
    {
      'review.next': actions.next,
      'review.previous': actions.previous,
      'review.accept': actions.accept,
      'review.reject': actions.reject,
      'review.acceptFile': actions.acceptFile,
      ...(actions.theirs ? { 'review.theirs': actions.theirs } : {}),
      ...(actions.ours ? { 'review.ours': actions.ours } : {}),
      ...(actions.both ? { 'review.both': actions.both } : {}),
      ...(actions.edit ? { 'review.edit': actions.edit } : {}),
      ...(actions.nextConflict ? { 'review.nextConflict': actions.nextConflict } : {}),
    },
    enabled,
  );
}
