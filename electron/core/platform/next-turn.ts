// A later turn of the event loop: what ran before it in this turn has finished, and timers, I/O and other requests
// waiting behind it get to run first.
import { setImmediate } from 'node:timers';

export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));
