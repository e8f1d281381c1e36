// Tells interested owners (a consolidation run holding Codex's lease for its review) that a proposal left `pending`.
export type SettledListener = (id: string, outcome: 'applied' | 'rejected') => void;

export interface SettledSignal {
  /** Listens until the returned function is called. */
  on(listener: SettledListener): () => void;
  /** Called by whoever applied or rejected the proposal. */
  announce(id: string, outcome: 'applied' | 'rejected'): void;
}

export function createSettledSignal(): SettledSignal {
  const listeners = new Set<SettledListener>();
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    announce(id, outcome) {
      for (const listener of listeners) {
        try {
          listener(id, outcome);
        } catch {
          // An owner's bookkeeping must never turn a finished Apply into a failure.
        }
      }
    },
  };
}
