// Work that takes turns on the main loop: each piece runs its synchronous part in a turn of the event loop of its own,
// so a storm of requests (searches typed, rejects clicked through) never runs back to back in one turn of the loop
// while timers, other requests and events wait behind all of them.
import { nextTurn } from '../platform/next-turn';

/** Runs `work` after the work queued before it, in a later turn of the event loop than theirs. */
export type InTurn = <T>(work: () => T) => Promise<T>;

/** A queue of its own: its pieces take turns in order, one per turn of the loop; a failure is its caller's alone. */
export function createTurns(): InTurn {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => T): Promise<T> => {
    const run = tail.then(nextTurn).then(work);
    tail = run.catch(() => undefined);
    return run;
  };
}
