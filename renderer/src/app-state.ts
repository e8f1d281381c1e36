// Publishes `data-app-state` on #root (loading | ready | error): the marker end-to-end tests wait on.
import { useLayoutEffect } from 'react';

export type AppState = 'loading' | 'ready' | 'error';

export interface AppStateInput {
  homeLoaded: boolean;
  homeFailed: boolean;
  /** Every list of a present root has answered (with files or with an error). */
  listsSettled: boolean;
}

/** Root-level list errors still count as ready: the app is usable and shows them in the sidebar. */
export function computeAppState({ homeLoaded, homeFailed, listsSettled }: AppStateInput): AppState {
  if (!homeLoaded) return homeFailed ? 'error' : 'loading';
  return listsSettled ? 'ready' : 'loading';
}

export function usePublishAppState(state: AppState): void {
  useLayoutEffect(() => {
    document.getElementById('root')?.setAttribute('data-app-state', state);
  }, [state]);
}
