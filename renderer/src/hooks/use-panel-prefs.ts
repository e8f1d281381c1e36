// Which side panels of the file view are open (outline, inspector), remembered across files and reloads. Below 1200 px
// of window width they would squeeze the editor: there they are closed and open one at a time as an overlay (Escape closes).
import { useCallback, useEffect, useState } from 'react';

export interface PanelPrefs {
  outline: boolean;
  inspector: boolean;
}

const STORAGE_KEY = 'memory-studio.panels';
const defaults: PanelPrefs = { outline: true, inspector: true };

function read(): PanelPrefs {
  try {
    const raw = window.localStorage.getItem(STORAGE_KEY);
    if (!raw) return defaults;
    const parsed = JSON.parse(raw) as Partial<Record<keyof PanelPrefs, unknown>>;
    return {
      outline: typeof parsed.outline === 'boolean' ? parsed.outline : defaults.outline,
      inspector: typeof parsed.inspector === 'boolean' ? parsed.inspector : defaults.inspector,
    };
  } catch {
    // Storage can be disabled or hold something else; the defaults are fine.
    return defaults;
  }
}

/** Narrower than this, side panels open over the editor instead of beside it. */
export const NARROW_QUERY = '(max-width: 1199.98px)';

function useNarrowWindow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia?.(NARROW_QUERY).matches ?? false);
  useEffect(() => {
    const media = window.matchMedia?.(NARROW_QUERY);
    if (!media) return undefined;
    const onChange = () => setNarrow(media.matches);
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
  return narrow;
}

function useRememberedPrefs(): [PanelPrefs, (panel: keyof PanelPrefs) => void] {
  const [prefs, setPrefs] = useState(read);
  const toggle = useCallback((panel: keyof PanelPrefs) => {
    setPrefs((current) => {
      const next = { ...current, [panel]: !current[panel] };
      try {
        window.localStorage.setItem(STORAGE_KEY, JSON.stringify(next));
      } catch {
        // Not remembered across reloads then; the toggle still works.
      }
      return next;
    });
  }, []);
  return [prefs, toggle];
}

/** The panels to show, their toggle, and whether they are overlays (a narrow window). */
export function usePanelPrefs(): [PanelPrefs, (panel: keyof PanelPrefs) => void, boolean] {
  const [prefs, toggleRemembered] = useRememberedPrefs();
  const narrow = useNarrowWindow();
  const [overlay, setOverlay] = useState<keyof PanelPrefs | null>(null);
  useEffect(() => {
    if (!narrow) setOverlay(null);
  }, [narrow]);
  useEffect(() => {
    if (!overlay) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      setOverlay(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [overlay]);
  const toggle = useCallback(
    (panel: keyof PanelPrefs) => {
      if (narrow) setOverlay((current) => (current === panel ? null : panel));
      else toggleRemembered(panel);
    },
    [narrow, toggleRemembered],
  );
  const shown = narrow ? { outline: overlay === 'outline', inspector: overlay === 'inspector' } : prefs;
  return [shown, toggle, narrow];
}
