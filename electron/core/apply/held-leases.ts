// Codex leases this process already holds for longer work (a consolidation run held through its review), lent to Apply.
import type { HeldLease } from './codex-lease';

const held = new Map<string, HeldLease>();

/** Registers a lease held by a long-running owner; Apply in this process borrows it instead of claiming (and refusing). */
export function lendLease(lease: HeldLease): () => void {
  held.set(lease.dbPath, lease);
  return () => {
    if (held.get(lease.dbPath) === lease) held.delete(lease.dbPath);
  };
}

/** The lease this process holds on `dbPath`, when it is still ours. */
export function borrowableLease(dbPath: string): HeldLease | null {
  const lease = held.get(dbPath);
  return lease && !lease.lost ? lease : null;
}
