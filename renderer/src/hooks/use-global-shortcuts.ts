// Window-wide keyboard shortcuts: `/` and Ctrl/Cmd+P focus the file filter.
import { useEffect } from 'react';

function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT';
}

export function useGlobalShortcuts(focusFilter: () => void): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const modP = (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'p';
      // `/` only outside text fields (Monaco's input is a textarea), so it can still be typed there.
      const slash = event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isTextEntry(event.target);
      if (!modP && !slash) return;
      event.preventDefault();
      event.stopPropagation();
      focusFilter();
    };
    // Capture phase: Monaco handles keys on its own textarea and would otherwise see Ctrl+P first.
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [focusFilter]);
}
