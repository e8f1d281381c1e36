// Searches take turns on the main loop (`turns.ts`): each runs its synchronous part (the FTS query, ranking, snippets)
// in a turn of its own, so eight searches in flight never hold the loop back to back.
import { createTurns } from './turns';

/** `work` after the searches queued before it, in a later turn of the event loop than theirs. */
export const inTurn = createTurns();
