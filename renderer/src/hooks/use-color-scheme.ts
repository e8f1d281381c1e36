// The theme: what the person chose (System, Light or Dark, kept in localStorage) and the scheme it comes to, live.
// CSS follows `data-theme` on <html> (theme.css: `color-scheme` drives every colour through light-dark()); Monaco, which
// CSS cannot reach, takes the resolved scheme from useColorScheme(). `renderer/theme-boot.js` puts the saved choice on
// <html> before the first paint, with the same storage key.
import { useSyncExternalStore } from 'react';

export type ColorScheme = 'light' | 'dark';
export type ThemeSetting = 'system' | 'light' | 'dark';

export const themeSettings: readonly ThemeSetting[] = ['system', 'light', 'dark'];
export const themeLabels: Record<ThemeSetting, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** Shared with theme-boot.js, which cannot import it. */
export const THEME_STORAGE_KEY = 'memory-studio.theme';

const query = '(prefers-color-scheme: dark)';

function parseSetting(value: string | null | undefined): ThemeSetting {
  return value === 'light' || value === 'dark' ? value : 'system';
}

function readStored(): ThemeSetting {
  try {
    return parseSetting(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    // Storage refused (a locked-down profile): the theme follows the OS and is not kept.
    return 'system';
  }
}

// theme-boot.js already put this on <html> before the first paint.
let current: ThemeSetting = readStored();
const listeners = new Set<() => void>();

/** Puts the choice on <html>: `data-theme` for CSS (System leaves it to the OS through `color-scheme: light dark`). */
function applyToDocument(setting: ThemeSetting): void {
  const root = document.documentElement;
  if (setting === 'system') delete root.dataset.theme;
  else root.dataset.theme = setting;
}

function publish(setting: ThemeSetting): void {
  current = setting;
  applyToDocument(setting);
  for (const listener of listeners) listener();
}

/** Chooses the theme, keeps it for the next start, and applies it at once (CSS and Monaco). */
export function setThemeSetting(setting: ThemeSetting): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, setting);
  } catch {
    // Not kept, still applied for this page.
  }
  publish(setting);
}

function subscribeSetting(onChange: () => void): () => void {
  listeners.add(onChange);
  // Another window of the same origin chose a theme: follow it.
  const onStorage = (event: StorageEvent) => {
    if (event.key === THEME_STORAGE_KEY && parseSetting(event.newValue) !== current) publish(parseSetting(event.newValue));
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onStorage);
  };
}

export function useThemeSetting(): ThemeSetting {
  return useSyncExternalStore(subscribeSetting, () => current);
}

function subscribeSystem(onChange: () => void): () => void {
  const media = window.matchMedia(query);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

function systemScheme(): ColorScheme {
  return window.matchMedia(query).matches ? 'dark' : 'light';
}

/** The scheme in force: the chosen one, or the OS's (live) under System. */
export function useColorScheme(): ColorScheme {
  const setting = useThemeSetting();
  const system = useSyncExternalStore(subscribeSystem, systemScheme);
  return setting === 'system' ? system : setting;
}
