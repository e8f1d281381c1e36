// Which side panels of the file view are open (outline, inspector), remembered across files and reloads.
import { useCallback, useState } from 'react';

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

export function usePanelPrefs(): [PanelPrefs, (panel: keyof PanelPrefs) => void] {
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
