// Handlers for `search.*` and `index.*`: ranked search over the home's index, the palette's places, and the index itself.
import type { SearchInput, SearchResult } from '../../../shared/search';
import type { IndexedHome } from '../index-store/inspect';
import { searchBlocks, indexProjects, searchIndex } from '../index-store/search';
import { hybridSearch } from '../index-store/hybrid';
import { embedTexts } from '../embeddings/client';
import { loadEmbeddingsSettings } from '../embeddings/settings';
import { toStudioError } from '../platform/errors';
import type { AreaHandlers, HandlerContext } from './context';

/** Why search has nothing to offer right now, in words the search view shows. */
function unavailable(ctx: HandlerContext, query: string, started: number): SearchResult {
  const status = ctx.index.status();
  const why = status.state === 'cancelled' ? `${status.message} Resume it to search.` : status.message;
  return { query, hits: [], total: 0, elapsedMs: Math.round(performance.now() - started), notes: [why], ranking: 'bm25' };
}

/**
 * BM25 and embeddings fused when an endpoint is configured (`<data>/embeddings.json`); else, or when the endpoint fails,
 * BM25 alone with a note saying why. Only the index's chunks, whose secrets are masked, are ever sent.
 */
async function rank(ctx: HandlerContext, env: NodeJS.ProcessEnv, indexed: IndexedHome, input: SearchInput) {
  const { settings, note } = await loadEmbeddingsSettings(ctx.dataDir);
  if (!settings) return { ...searchIndex(indexed.db, input), notes: note ? [note] : [], ranking: 'bm25' as const };
  try {
    const { hits, total, missing } = await hybridSearch(indexed.db, indexed.generation, input, settings.model, (texts) =>
      embedTexts(settings, texts, env),
    );
    const notes =
      missing > 0 ? [`${missing} passages have no embedding yet: they rank by their words alone until later searches embed them.`] : [];
    return { hits, total, notes, ranking: 'hybrid' as const };
  } catch (error) {
    const why = toStudioError(error).message;
    return { ...searchIndex(indexed.db, input), notes: [`Ranked by BM25 alone: ${why}`], ranking: 'bm25' as const };
  }
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
      const ranked = await rank(ctx, env, indexed, input);
      return {
        query: input.query,
        hits: ranked.hits,
        total: ranked.total,
        elapsedMs: Math.round((performance.now() - started) * 100) / 100,
        notes: [...notes, ...ranked.notes],
        ranking: ranked.ranking,
      };
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
