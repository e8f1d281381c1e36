// Searches take turns on the main loop: each runs its synchronous part (the FTS query, ranking, snippets) in a turn of
// its own, so a storm of searches (a person typing, 8 requests in flight) never runs back to back in one turn of the
// loop while timers, other requests and events wait behind all of them.
import { setImmediate } from 'node:timers';

let tail: Promise<unknown> = Promise.resolve();

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `work` after the searches queued before it, in a later turn of the event loop than theirs. */
export function inTurn<T>(work: () => T): Promise<T> {
  const run = tail.then(nextTurn).then(work);
  tail = run.catch(() => undefined);
  return run;
}
