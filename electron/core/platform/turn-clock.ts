// Long synchronous work cut into turns of the loop by time: `due()` says when timers, I/O and other requests are owed a turn (a few
// milliseconds since the last one), so no one piece of the work holds a shared loop for long.
import { performance } from 'node:perf_hooks';
import { cancelledFailure } from './errors';
import { nextTurn } from './next-turn';

/** How long work runs between turns by default: well inside the 50 ms a stall may last. */
export const TURN_MS = 8;

export interface TurnClock {
  /** True once the turn's time is up. */
  due(): boolean;
  /** A turn of the loop, after which the time starts again. */
  turn(): Promise<void>;
}

export function turnClock(ms = TURN_MS): TurnClock {
  let since = performance.now();
  return {
    due: () => performance.now() - since >= ms,
    turn: async () => {
      await nextTurn();
      since = performance.now();
    },
  };
}

/** A turn of the loop when one is owed; after it, Cancelled if `signal` aborted meanwhile. */
export async function turnIfDue(clock: TurnClock, signal?: AbortSignal): Promise<void> {
  if (!clock.due()) return;
  await clock.turn();
  if (signal?.aborted) throw cancelledFailure(signal);
}
