// Tells interested owners (a consolidation run holding Codex's lease for its review) that a proposal left `pending`.
type Listener = (id: string, outcome: 'applied' | 'rejected') => void;

const listeners = new Set<Listener>();

export function onProposalSettled(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function proposalSettled(id: string, outcome: 'applied' | 'rejected'): void {
  for (const listener of listeners) {
    try {
      listener(id, outcome);
    } catch {
      // An owner's bookkeeping must never turn a finished Apply into a failure.
    }
  }
}
