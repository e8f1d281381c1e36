// When a health report stops being true: the first moment after "now" at which one of its time comparisons flips.

/**
 * Every comparison of a stored time with the clock (a lease running until, a retry after, a cooldown, an age window,
 * max_unused_days) reports the second at which its answer changes; until the earliest of them, the same DB content
 * gives the same report, so it can be kept and answered again.
 */
export class Horizon {
  next = Infinity;

  constructor(readonly now: number) {}

  /** Some answer changes at `at` (seconds); earlier than the real flip is safe, later never. */
  at(at: number | null | undefined): void {
    if (at !== null && at !== undefined && Number.isFinite(at) && at > this.now && at < this.next) this.next = at;
  }
}

/** For callers that need no horizon. */
export const noHorizon = (now: number) => new Horizon(now);
