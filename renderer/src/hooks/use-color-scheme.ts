// Follows the OS light/dark preference live, for the parts CSS cannot reach (Monaco's theme).
import { useSyncExternalStore } from 'react';

export type ColorScheme = 'light' | 'dark';

const query = '(prefers-color-scheme: dark)';

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(query);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

function getSnapshot(): ColorScheme {
  return window.matchMedia(query).matches ? 'dark' : 'light';
}

export function useColorScheme(): ColorScheme {
  return useSyncExternalStore(subscribe, getSnapshot);
}
