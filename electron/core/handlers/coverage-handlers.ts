// Handlers for `coverage.*`: the coverage ledger of Codex's memory pipeline (read only).
import { runTask } from '../runtime/pool';
import type { AreaHandlers, HandlerContext } from './context';

export function coverageHandlers(ctx: HandlerContext): AreaHandlers<'coverage'> {
  return {
    // Codex's DBs are read synchronously and MEMORY.md is scanned whole (up to a second on a heavy home): on a worker.
    'coverage.get': async (input, request) => runTask('coverage', { home: await ctx.home(), input }, { signal: request?.signal }),
  };
}
