// A tiny observable for the state of live updates (the event stream), read by the status bar.

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'off';

export interface LiveStatusSource {
  get(): LiveStatus;
  subscribe(listener: () => void): () => void;
}

export interface LiveStatusStore extends LiveStatusSource {
  set(status: LiveStatus): void;
}

export function createLiveStatusStore(initial: LiveStatus): LiveStatusStore {
  let status = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => status,
    set(next) {
      if (next === status) return;
      status = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
