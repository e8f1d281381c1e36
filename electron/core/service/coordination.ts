// The one object through which a service's consolidation runs, its Apply and its history coordinate: created by the
// service (or by a CLI command that applies without one) and handed to each, instead of module-level singletons.
import { createLeaseLender, type LeaseLender } from '../lease/held-leases';
import { createOwnWrites, type OwnWrites } from '../history/own-writes';
import { createSettledSignal, type SettledSignal } from '../review/settled';

export interface Coordination {
  /** Codex leases a consolidation run holds through its review; Apply borrows them instead of claiming its own. */
  readonly leases: LeaseLender;
  /** Apply and reject announce a settled proposal; the run that holds its lease releases it. */
  readonly settled: SettledSignal;
  /** What Apply wrote, so external history does not record our own writes as Codex's. */
  readonly ownWrites: OwnWrites;
}

export function createCoordination(): Coordination {
  return { leases: createLeaseLender(), settled: createSettledSignal(), ownWrites: createOwnWrites() };
}
