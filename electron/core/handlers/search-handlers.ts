// Handlers for `search.*` and `index.*`: ranked search over the home's index, the palette's places, and the index itself.
import type { SearchResult } from '../../../shared/search';
import type { IndexedHome } from '../index-store/inspect';
import { searchBlocks, indexProjects } from '../index-store/search';
import type { AreaHandlers, HandlerContext } from './context';
import { elapsedSince, searchHome } from './search-query';

/** Why search has nothing to offer right now, in words the search view shows. */
function unavailable(ctx: HandlerContext, query: string, started: number): SearchResult {
  const status = ctx.index.status();
  const why = status.state === 'cancelled' ? `${status.message} Resume it to search.` : status.message;
  return { query, hits: [], total: 0, elapsedMs: elapsedSince(started), notes: [why], ranking: 'bm25' };
}

/** The index to search now: the one being built is not waited for (its progress is shown); the last one stands in. */
async function searchable(ctx: HandlerContext): Promise<{ indexed: IndexedHome | null; notes: string[] }> {
  if (ctx.index.status().state === 'building') {
    const last = ctx.index.last();
    return { indexed: last, notes: last ? ['The index is being updated; these results may miss the newest changes.'] : [] };
  }
  // The watcher keeps the index current: a query refreshes only after a change.
  return { indexed: await ctx.index.fresh({ maxAgeMs: Infinity }), notes: [] };
}

export function searchHandlers(ctx: HandlerContext, env: NodeJS.ProcessEnv = process.env): AreaHandlers<'search'> & AreaHandlers<'index'> {
  return {
    'search.query': async (input) => {
      const started = performance.now();
      const { indexed, notes } = await searchable(ctx);
      if (!indexed) return unavailable(ctx, input.query, started);
      return searchHome(indexed, input, { dataDir: ctx.dataDir, env, hybrid: true, started, notes });
    },
    'search.blocks': async ({ query, limit }) => {
      const { indexed } = await searchable(ctx);
      return indexed ? searchBlocks(indexed.db, query, limit) : [];
    },
    'search.projects': async () => {
      const { indexed } = await searchable(ctx);
      return indexed ? indexProjects(indexed.db) : [];
    },
    'index.status': async () => ctx.index.status(),
    'index.cancel': async () => {
      ctx.index.cancel();
      return ctx.index.status();
    },
    'index.resume': async () => {
      ctx.index.resume();
      return ctx.index.status();
    },
  };
}
