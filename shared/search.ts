// Full-text search over a Codex home's memory (the index's FTS5 tables) and the index's own state.
import { z } from 'zod';
import { FileKindSchema, MemoryVersionSchema } from './domain';

/** A character range inside `snippet` to show highlighted (UTF-16 offsets, end exclusive). */
export const HighlightSchema = z.tuple([z.number().int().min(0), z.number().int().min(0)]);

export const SearchHitSchema = z.object({
  version: MemoryVersionSchema,
  relPath: z.string(),
  kind: FileKindSchema,
  /** 1-based line of the best-matching line of the hit. */
  line: z.number().int().min(1),
  /** BM25 relevance, higher is better (SQLite's bm25() negated). */
  score: z.number(),
  /** That line, shortened around the match. */
  snippet: z.string(),
  highlights: z.array(HighlightSchema),
  /** The project the text belongs to (a rollout's cwd, a MEMORY.md block's applies_to, a summary scope), when known. */
  project: z.string().nullable(),
});
export type SearchHit = z.infer<typeof SearchHitSchema>;

export const SearchInputSchema = z
  .object({
    query: z.string().max(500),
    version: MemoryVersionSchema.optional(),
    kind: FileKindSchema.optional(),
    project: z.string().max(500).optional(),
    limit: z.number().int().min(1).max(500).optional(),
  })
  .strict();
export type SearchInput = z.infer<typeof SearchInputSchema>;

export const SearchResultSchema = z.object({
  query: z.string(),
  hits: z.array(SearchHitSchema),
  /** Chunks that matched before the limit (an exact count up to 10,000). */
  total: z.number().int().min(0),
  elapsedMs: z.number(),
  /** Said when the index is being built, is incomplete, or is off (and why). */
  notes: z.array(z.string()),
  /** `hybrid`: BM25 and embeddings fused by reciprocal rank (an embeddings endpoint is configured); else BM25 alone. */
  ranking: z.enum(['bm25', 'hybrid']).default('bm25'),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

/** A named place in a file for the command palette: a MEMORY.md block or task, a summary scope, a heading, a rollout's title. */
export const BlockHitSchema = z.object({
  version: MemoryVersionSchema,
  relPath: z.string(),
  kind: z.string(),
  line: z.number().int().min(1),
  endLine: z.number().int().min(1),
  title: z.string(),
  project: z.string().nullable(),
});
export type BlockHit = z.infer<typeof BlockHitSchema>;

export const BlocksInputSchema = z.object({ query: z.string().max(200), limit: z.number().int().min(1).max(200).optional() }).strict();

export const IndexStateSchema = z.enum(['idle', 'building', 'ready', 'cancelled', 'off']);
export type IndexState = z.infer<typeof IndexStateSchema>;

export const IndexStatusSchema = z.object({
  state: IndexStateSchema,
  /** Files (memory files and sessions) analysed so far in the current build, and how many it has to do. */
  done: z.number().int().min(0),
  total: z.number().int().min(0),
  /** One sentence for the status bar: what is happening, or why the index is off and what to do. */
  message: z.string(),
  /** A rebuild notice (damaged index, newer format), said once. */
  notice: z.string().nullable(),
  path: z.string().nullable(),
});
export type IndexStatus = z.infer<typeof IndexStatusSchema>;

export const searchProjectsSchema = z.array(z.object({ project: z.string(), files: z.number().int() }));
