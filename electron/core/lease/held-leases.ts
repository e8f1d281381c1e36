// Codex leases a service already holds for longer work (a consolidation run held through its review), lent to its Apply.
import type { HeldLease } from './codex-lease';

export interface LeaseLender {
  /** Registers a lease held by a long-running owner; Apply borrows it instead of claiming (and refusing). Returns the unlend. */
  lend(lease: HeldLease): () => void;
  /** The lease held on `dbPath`, when it is still ours. */
  borrowable(dbPath: string): HeldLease | null;
}

export function createLeaseLender(): LeaseLender {
  const held = new Map<string, HeldLease>();
  return {
    lend(lease) {
      held.set(lease.dbPath, lease);
      return () => {
        if (held.get(lease.dbPath) === lease) held.delete(lease.dbPath);
      };
    },
    borrowable(dbPath) {
      const lease = held.get(dbPath);
      return lease && !lease.lost ? lease : null;
    },
  };
}
