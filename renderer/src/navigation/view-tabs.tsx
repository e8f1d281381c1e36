// The top bar's view switcher (Files | Rollouts | Projects | Health | Review | History | Consolidate | Import | Search |
// Doctor | Sync | Coverage): a tablist with arrow keys and Alt+1..9, 0 (no digit past the tenth), both on the keymap.
import { useRef, type ReactNode } from 'react';
import { useGlobalKeys, useKeyScope } from '../keymap/use-keys';
import { viewForKey, viewKey, viewLabels, views, type View } from './location';

export interface ViewTabsProps {
  view: View;
  onChange: (view: View) => void;
  /** Small counts shown on a tab (the Review tab's pending proposals). */
  badges?: Partial<Record<View, ReactNode>>;
}

export const viewTabId = (view: View) => `view-tab-${view}`;
export const viewPanelId = (view: View) => `view-panel-${view}`;

/** WAI-ARIA tabs with automatic activation: arrows move and select, Home/End jump to the ends. */
function nextView(current: View, key: string): View | null {
  const index = views.indexOf(current);
  if (key === 'ArrowRight') return views[(index + 1) % views.length] ?? null;
  if (key === 'ArrowLeft') return views[(index - 1 + views.length) % views.length] ?? null;
  if (key === 'Home') return views[0];
  if (key === 'End') return views[views.length - 1] ?? null;
  return null;
}

export function ViewTabs({ view, onChange, badges }: ViewTabsProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const tabRefs = useRef(new Map<View, HTMLButtonElement>());
  // The keymap's `tabs` scope (keymap/bindings.ts): the focus is always on the selected tab, the one Tab stop.
  useKeyScope(listRef, 'tabs', {
    'tabs.move': (event) => {
      const next = nextView(view, event.key);
      if (!next) return false;
      onChange(next);
      tabRefs.current.get(next)?.focus();
      return undefined;
    },
  });

  return (
    <div ref={listRef} className="view-tabs" role="tablist" aria-label="Views">
      {views.map((item) => (
        <button
          key={item}
          ref={(element) => {
            if (element) tabRefs.current.set(item, element);
            else tabRefs.current.delete(item);
          }}
          type="button"
          role="tab"
          id={viewTabId(item)}
          className="view-tab"
          aria-selected={item === view}
          aria-controls={viewPanelId(item)}
          aria-keyshortcuts={viewKey(item) === null ? undefined : `Alt+${viewKey(item)}`}
          tabIndex={item === view ? 0 : -1}
          data-testid="view-tab"
          data-view={item}
          title={viewKey(item) === null ? viewLabels[item] : `${viewLabels[item]} (Alt+${viewKey(item)})`}
          onClick={() => onChange(item)}
        >
          {viewLabels[item]}
          {badges?.[item] ?? null}
        </button>
      ))}
    </div>
  );
}

/**
 * Alt+1..9 and Alt+0 switch views from anywhere, Monaco included (the keymap's `view.switch`, by key position so macOS's
 * Option works). Focus moves to the new view's own field when it has one (marked data-autofocus), else to its tab: what
 * had focus is now hidden, and Tab from the tab enters the view.
 */
export function useViewShortcuts(current: View, onChange: (view: View) => void): void {
  useGlobalKeys({
    'view.switch': (event) => {
      const view = viewForKey(event.code.slice('Digit'.length));
      if (!view) return false;
      if (view === current) return;
      onChange(view);
      // A view with a field of its own (Search) takes the focus there; the others on their tab.
      window.requestAnimationFrame(() =>
        (
          document.querySelector<HTMLElement>(`#${viewPanelId(view)} [data-autofocus]`) ?? document.getElementById(viewTabId(view))
        )?.focus(),
      );
    },
  });
}
