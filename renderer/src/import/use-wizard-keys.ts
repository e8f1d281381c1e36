// The wizard's keys: Alt+→ Next and Alt+← Back from anywhere in the view, Enter = Next outside controls that use Enter.
import { useEffect, useRef } from 'react';

export interface WizardKeyActions {
  next: () => void;
  back: () => void;
  /** Next is allowed now (Enter and Alt+→ do nothing otherwise). */
  canNext: boolean;
  canBack: boolean;
}

/** Enter keeps its own meaning on buttons, links, lists, text areas, Monaco and inputs marked `data-own-enter`. */
export function enterIsOwned(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('.monaco-editor, [data-own-enter]')) return true;
  if (['BUTTON', 'A', 'TEXTAREA', 'SELECT', 'SUMMARY'].includes(target.tagName)) return true;
  if (target.tagName === 'INPUT') return ['button', 'submit', 'reset', 'file'].includes((target as HTMLInputElement).type);
  return ['button', 'link', 'tab', 'option', 'menuitem'].includes(target.getAttribute('role') ?? '');
}

/**
 * Listens on `container` only while `active`. Alt+arrows run in the capture phase so Monaco and
 * the browser's own Alt+← (history back) never see them.
 */
export function useWizardKeys(container: HTMLElement | null, active: boolean, actions: WizardKeyActions): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    if (!active) return undefined;
    const onAltArrow = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
      event.preventDefault();
      event.stopPropagation();
      const { next, back, canNext, canBack } = latest.current;
      if (event.key === 'ArrowRight' && canNext) next();
      if (event.key === 'ArrowLeft' && canBack) back();
    };
    const onEnter = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.isComposing) return;
      if (event.defaultPrevented || enterIsOwned(event.target) || !latest.current.canNext) return;
      event.preventDefault();
      latest.current.next();
    };
    window.addEventListener('keydown', onAltArrow, true);
    container?.addEventListener('keydown', onEnter);
    return () => {
      window.removeEventListener('keydown', onAltArrow, true);
      container?.removeEventListener('keydown', onEnter);
    };
  }, [container, active]);
}
