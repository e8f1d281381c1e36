// Hybrid search: BM25 and embedding similarity over the index's chunks, fused by reciprocal rank. Each chunk's vector is
// kept in the index DB (`chunk_vectors`), made from its stored text, in which every secret is already masked.
import type Database from 'better-sqlite3';
import type { SearchHit, SearchInput } from '../../../shared/search';
import { hitOf, parseQuery, rankedChunks, type HitRow } from './search';
import { stmt } from './statements';
import { StudioFailure } from '../platform/errors';
import { itemAt } from '../platform/indexed';

/** Reciprocal rank fusion's constant (Cormack et al.): a rank's weight is 1 / (K + rank). */
const RRF_K = 60;
/** How deep each ranking goes before they are fused. */
const FUSE_DEPTH = 100;
/** Chunks embedded per search at most: a large home is embedded over a few searches, never by one that hangs. */
const EMBED_BUDGET = 512;
const EMBED_BATCH = 32;
/** A chunk is sent with its file name and title, cut to this many characters. */
const EMBED_CHARS = 8000;

export type Embed = (texts: readonly string[]) => Promise<Float32Array[]>;

interface VectorRow {
  id: number;
  version: string;
  kind: string;
  project: string | null;
  vector: Float32Array;
}

/** The loaded vectors of one index connection, reloaded when the index or the vectors change. */
const loaded = new WeakMap<Database.Database, { key: string; rows: VectorRow[] }>();

const toBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
const fromBlob = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

function normalized(v: Float32Array): Float32Array {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum) || 1;
  return v.map((x) => x / norm);
}

/**
 * Embeds chunks that have no vector for `model` yet (at most EMBED_BUDGET per call) and drops vectors of chunks that are
 * gone or of another model. Returns how many chunks are still without one.
 */
export async function ensureVectors(db: Database.Database, model: string, embed: Embed): Promise<number> {
  stmt(db, 'DELETE FROM chunk_vectors WHERE model != ? OR chunk_id NOT IN (SELECT id FROM chunks)').run(model);
  const missing = stmt<{ id: number; body: string; meta: string }>(
    db,
    'SELECT c.id, f.body, f.meta FROM chunks c JOIN chunks_fts f ON f.rowid = c.id WHERE c.id NOT IN (SELECT chunk_id FROM chunk_vectors) ORDER BY c.id LIMIT ?',
  ).all(EMBED_BUDGET);
  for (let at = 0; at < missing.length; at += EMBED_BATCH) {
    const batch = missing.slice(at, at + EMBED_BATCH);
    const vectors = await embed(batch.map((c) => `${c.meta}\n${c.body}`.slice(0, EMBED_CHARS)));
    const insert = stmt(db, 'INSERT OR REPLACE INTO chunk_vectors (chunk_id, model, vector) VALUES (?, ?, ?)');
    db.transaction(() => batch.forEach((c, i) => insert.run(c.id, model, toBlob(normalized(itemAt(vectors, i))))))();
  }
  return stmt<{ n: number }>(db, 'SELECT count(*) AS n FROM chunks WHERE id NOT IN (SELECT chunk_id FROM chunk_vectors)').get()?.n ?? 0;
}

function vectorsOf(db: Database.Database, generation: number, model: string): VectorRow[] {
  const count = stmt<{ n: number; top: number | null }>(db, 'SELECT count(*) AS n, max(rowid) AS top FROM chunk_vectors').get();
  const key = `${generation}|${model}|${count?.n ?? 0}|${count?.top ?? 0}`;
  const cached = loaded.get(db);
  if (cached?.key === key) return cached.rows;
  const rows = stmt<{ id: number; version: string; kind: string; project: string | null; vector: Buffer }>(
    db,
    'SELECT v.chunk_id AS id, c.version, c.kind, c.project, v.vector FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id WHERE v.model = ?',
  )
    .all(model)
    .map((r) => ({ ...r, vector: fromBlob(r.vector) }));
  loaded.set(db, { key, rows });
  return rows;
}

/** Chunks by cosine similarity to the query's vector, with the search's filters, best first. */
function vectorRanking(rows: readonly VectorRow[], query: Float32Array, input: SearchInput, limit: number): number[] {
  const q = normalized(query);
  const scored: Array<{ id: number; sim: number }> = [];
  for (const row of rows) {
    if ((input.version && row.version !== input.version) || (input.kind && row.kind !== input.kind)) continue;
    if (input.project && row.project !== input.project) continue;
    if (row.vector.length !== q.length) continue;
    let sim = 0;
    for (let i = 0; i < q.length; i++) {
      // Checked here, not through itemAt: a local read stays fast over thousands of vectors.
      const a = q[i];
      const b = row.vector[i];
      if (a === undefined || b === undefined) throw new StudioFailure('Internal', `Index ${i} of two vectors of ${q.length} was missing.`);
      sim += a * b;
    }
    scored.push({ id: row.id, sim });
  }
  return scored
    .sort((a, b) => b.sim - a.sim)
    .slice(0, limit)
    .map((s) => s.id);
}

/** A chunk the vectors found and BM25 did not: its best line (by the query's words, else its first) as the hit. */
function chunkHit(db: Database.Database, id: number, query: string, score: number): SearchHit | null {
  const row = stmt<Omit<HitRow, 'id' | 'score'>>(
    db,
    'SELECT c.version, c.path, c.kind, c.line, c.project, f.body FROM chunks c JOIN chunks_fts f ON f.rowid = c.id WHERE c.id = ?',
  ).get(id);
  return row ? hitOf(row, parseQuery(query), score) : null;
}

/**
 * BM25 and embedding ranks fused (reciprocal rank fusion): a hit's score is the sum of 1 / (60 + rank) over the two
 * rankings. `missing` is how many chunks had no vector yet (ranked by BM25 alone).
 */
export async function hybridSearch(
  db: Database.Database,
  generation: number,
  input: SearchInput,
  model: string,
  embed: Embed,
): Promise<{ hits: SearchHit[]; total: number; missing: number }> {
  const missing = await ensureVectors(db, model, embed);
  const [queryVector] = await embed([input.query]);
  const bm25 = rankedChunks(db, input, FUSE_DEPTH);
  const byVector = vectorRanking(vectorsOf(db, generation, model), queryVector as Float32Array, input, FUSE_DEPTH);
  const fused = new Map<number, { score: number; hit: SearchHit | null }>();
  bm25.forEach(({ id, hit }, rank) => fused.set(id, { score: 1 / (RRF_K + rank + 1), hit }));
  byVector.forEach((id, rank) => {
    const entry = fused.get(id) ?? { score: 0, hit: null };
    entry.score += 1 / (RRF_K + rank + 1);
    fused.set(id, entry);
  });
  const ranked = [...fused.entries()].sort((a, b) => b[1].score - a[1].score).slice(0, input.limit ?? 50);
  const hits: SearchHit[] = [];
  for (const [id, { score, hit }] of ranked) {
    const rounded = Number(score.toPrecision(4));
    const made = hit ? { ...hit, score: rounded } : chunkHit(db, id, input.query, rounded);
    if (made) hits.push(made);
  }
  return { hits, total: fused.size, missing };
}
