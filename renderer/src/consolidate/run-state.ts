// Which run states are still going: the page's Cancel, the status polling and the cache's end-of-run refresh agree on it.
import type { RunStatus } from '../../../shared/consolidate';

export const activeStates: ReadonlySet<RunStatus['state']> = new Set(['running', 'cancelling']);

export function isActive(run: RunStatus | null | undefined): boolean {
  return !!run && activeStates.has(run.state);
}
