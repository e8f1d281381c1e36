// The wizard's keys on the keymap: Alt+→ Next and Alt+← Back from anywhere in the view, Enter = Next outside controls that use Enter.
import type { RefObject } from 'react';
import { useGlobalKeys, useKeyScope } from '../keymap/use-keys';

export interface WizardKeyActions {
  next: () => void;
  back: () => void;
  /** Next is allowed now (Enter and Alt+→ do nothing otherwise). */
  canNext: boolean;
  canBack: boolean;
}

/** Only while `active` (the Import view on screen); Alt+arrows are taken even when the step cannot move, as before. */
export function useWizardKeys(container: RefObject<HTMLElement | null>, active: boolean, actions: WizardKeyActions): void {
  const { next, back, canNext, canBack } = actions;
  useGlobalKeys(
    {
      'wizard.next': () => {
        // A field whose typing is not taken yet (a cwd, `data-pending`): this press takes it, so the step is checked
        // again with it before the next press moves on.
        const field = document.activeElement;
        if (field instanceof HTMLElement && field.dataset.pending === 'true') {
          field.blur();
          return;
        }
        if (canNext) next();
      },
      'wizard.back': () => {
        if (canBack) back();
      },
    },
    active,
  );
  // Enter that nothing else used (the keymap runs it after the focused control, and only if that did not handle it).
  useKeyScope(container, 'wizard', { 'wizard.next': () => (canNext ? next() : false) }, active);
}
