// Codex's global lease for one consolidation run: claimed at start, heart-beaten, held through the review, released once.
import { existsSync } from 'node:fs';
import type { MemoryVersion } from '../../../shared/domain';
import { HEARTBEAT_MS, type HeldLease, type LeaseLender, STUDIO_LEASE_SECONDS, claimLease, heartbeatLease, releaseLease } from '../lease';
import { StudioFailure } from '../platform/errors';

/** How long a finished run keeps Codex's lease while its proposal waits for review (then Apply claims its own). */
export const REVIEW_HOLD_MS = 30 * 60 * 1000;

export interface LeaseHold {
  readonly lease: HeldLease | null;
  /** Unix seconds the lease runs until (null when there is no memory DB to coordinate with). */
  leaseUntil(): number | null;
  /** Throws Locked when the lease was taken from us (Codex stole an expired row): the run must stop. */
  confirm(): void;
  /** Keeps the lease for Apply in this process for at most `ms`, then releases it untouched. */
  holdForReview(ms: number, onExpire: () => void): void;
  /** Releases once: `changed` leaves the row `pending` (files changed), else the previous row is restored. */
  release(changed: boolean): Promise<'restored' | 'pending' | 'absent'>;
}

/**
 * Claims Codex's lease in `dbPath` (Locked when Codex holds it), lent to Apply through `lender`; a root without a memory DB
 * has nobody to coordinate with.
 */
export async function holdLease(
  dataDir: string,
  dbPath: string,
  version: MemoryVersion,
  lender: LeaseLender,
  now: () => number = Date.now,
): Promise<LeaseHold> {
  const lease = existsSync(dbPath) ? await claimLease(dataDir, dbPath, version, Math.floor(now() / 1000)) : null;
  let until = lease ? Math.floor(now() / 1000) + STUDIO_LEASE_SECONDS : null;
  let released = false;
  let unlend: (() => void) | null = lease ? lender.lend(lease) : null;
  let expiry: NodeJS.Timeout | null = null;
  const beat = () => {
    if (!lease || released) return;
    const sec = Math.floor(now() / 1000);
    try {
      if (heartbeatLease(lease, sec)) until = sec + STUDIO_LEASE_SECONDS;
    } catch {
      // The DB went away or became unwritable: the lease is as good as lost; the run's next confirm() stops it.
      lease.lost = true;
    }
  };
  const timer = lease ? setInterval(beat, HEARTBEAT_MS) : null;
  timer?.unref();
  return {
    lease,
    leaseUntil: () => (released ? null : until),
    confirm() {
      let ours = true;
      try {
        ours = !lease || heartbeatLease(lease, Math.floor(now() / 1000));
      } catch {
        ours = false;
      }
      if (!ours) {
        throw new StudioFailure(
          'Locked',
          `Codex took back its ${version} memory lock while Memory Studio was consolidating; the run stopped and nothing was written.`,
          {
            hint: 'Codex is consolidating by itself now; look at its result, or run again later.',
          },
        );
      }
    },
    holdForReview(ms, onExpire) {
      if (!lease || released) return;
      expiry = setTimeout(onExpire, ms);
      expiry.unref();
    },
    async release(changed) {
      if (released) return 'absent';
      released = true;
      if (timer) clearInterval(timer);
      if (expiry) clearTimeout(expiry);
      unlend?.();
      unlend = null;
      if (!lease) return 'absent';
      // Guarded by our ownership token: a lease Codex took back is left exactly as Codex has it.
      const lost = lease.lost;
      // An Apply that borrowed the lease and wrote files asks for `pending` too, whatever this run's own outcome.
      const outcome = await releaseLease(lease, changed || lease.changed === true);
      return lost ? 'absent' : outcome;
    },
  };
}
