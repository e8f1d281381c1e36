// One search, composed once: the CLI's `search` and the `search.query` channel (app, serve, MCP) both answer through it,
// so ranking, notes and the elapsed time they report cannot drift apart.
import type { SearchInput, SearchResult } from '../../../shared/search';
import { embedTexts } from '../embeddings/client';
import { currentEmbeddingsSettings } from '../embeddings/settings';
import type { IndexedHome } from '../index-store/inspect';
import { hybridSearch } from '../index-store/hybrid';
import { searchIndex } from '../index-store/search';
import { StudioFailure, toStudioError } from '../platform/errors';
import { inTurn } from './search-turns';

export interface SearchOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** Fuse BM25 with embeddings when `<data>/embeddings.json` names an endpoint; false: BM25 alone (the CLI). */
  hybrid: boolean;
  /** When the request began (performance.now()), so the elapsed time covers opening the index too. */
  started: number;
  /** Notes about the index itself (an update in progress) to show before the ranking's own. */
  notes?: string[];
}

/** Milliseconds since `started`, to a hundredth. */
export const elapsedSince = (started: number): number => Math.round((performance.now() - started) * 100) / 100;

/**
 * BM25 and embeddings fused when asked and an endpoint is configured; else, or when the endpoint fails, BM25 alone with
 * a note saying why. Only the index's chunks, whose secrets are masked, are ever sent.
 */
async function rank(indexed: IndexedHome, input: SearchInput, options: SearchOptions) {
  const bm25 = () =>
    inTurn(() => {
      // Its turn may come after the index was closed (another home opened, a damaged index rebuilt): said, not a crash.
      if (!indexed.db.open)
        throw new StudioFailure('Busy', 'The index was closed while this search waited its turn.', { hint: 'Search again.' });
      return searchIndex(indexed.db, input);
    });
  if (!options.hybrid) return { ...(await bm25()), notes: [], ranking: 'bm25' as const };
  const { settings, note } = await currentEmbeddingsSettings(options.dataDir);
  if (!settings) return { ...(await bm25()), notes: note ? [note] : [], ranking: 'bm25' as const };
  try {
    const { hits, total, missing } = await hybridSearch(indexed.db, indexed.generation, input, settings.model, (texts) =>
      embedTexts(settings, texts, options.env),
    );
    const notes =
      missing > 0 ? [`${missing} passages have no embedding yet: they rank by their words alone until later searches embed them.`] : [];
    return { hits, total, notes, ranking: 'hybrid' as const };
  } catch (error) {
    const why = toStudioError(error).message;
    return { ...(await bm25()), notes: [`Ranked by BM25 alone: ${why}`], ranking: 'bm25' as const };
  }
}

export async function searchHome(indexed: IndexedHome, input: SearchInput, options: SearchOptions): Promise<SearchResult> {
  const ranked = await rank(indexed, input, options);
  return {
    query: input.query,
    hits: ranked.hits,
    total: ranked.total,
    elapsedMs: elapsedSince(options.started),
    notes: [...(options.notes ?? []), ...ranked.notes],
    ranking: ranked.ranking,
  };
}
