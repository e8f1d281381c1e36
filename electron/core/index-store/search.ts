// Ranked full-text search over the index (FTS5, BM25): hits with file, line, score and a highlighted snippet.
import type Database from 'better-sqlite3';
import type { FileKind, MemoryVersion } from '../../../shared/domain';
import type { BlockHit, SearchHit, SearchInput } from '../../../shared/search';
import { cachedAnswer } from './search-cache';
import { stmt } from './statements';

const DEFAULT_LIMIT = 50;
const SNIPPET_CHARS = 160;
/** Terms this long or longer also match words they start (`export` finds `exported`), as people expect from a search box. */
const PREFIX_FROM = 3;

export interface Term {
  tokens: string[];
  prefix: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower case without diacritics, as FTS5's unicode61 tokenizer (remove_diacritics 2) folds the indexed text. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** The query's terms: `"quoted words"` stay a phrase, a word with punctuation (a thread id, `invoice-svc`) too. */
export function parseQuery(query: string): Term[] {
  const terms: Term[] = [];
  for (const match of query.matchAll(/"([^"]*)"|(\S+)/g)) {
    const quoted = match[1] !== undefined;
    const tokens = [...fold(match[1] ?? match[2] ?? '').matchAll(WORD)].map((m) => m[0]);
    const last = tokens.at(-1);
    if (last !== undefined) terms.push({ tokens, prefix: !quoted && last.length >= PREFIX_FROM });
  }
  return terms;
}

/** FTS5 MATCH syntax: every term required; tokens are letters and digits only, so quoting them is safe. */
export function ftsQuery(terms: readonly Term[]): string {
  return terms.map((t) => `"${t.tokens.join(' ')}"${t.prefix ? ' *' : ''}`).join(' ');
}

function tokenMatches(word: string, terms: readonly Term[]): boolean {
  for (const t of terms) {
    for (const [i, token] of t.tokens.entries()) {
      if (word === token || (t.prefix && i === t.tokens.length - 1 && word.startsWith(token))) return true;
    }
  }
  return false;
}

/** No character past U+007F (tested by code point: a regex range starting at NUL trips the linter's control-character rule). */
const isAscii = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
};

/** A letter, digit or combining mark past ASCII: a character that folds, or joins a word, in ways ASCII does not. */
const NON_ASCII_WORD_CHAR = /(?=[^\0-\x7f])[\p{L}\p{N}\p{M}]/u;

/** ASCII letters and digits: what `\p{L}\p{N}` means in a line without a letter, digit or mark past ASCII. */
const isWordCode = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);

/** The words of `line` that a term matches, as [start, end) ranges of the line. */
function matchRanges(line: string, terms: readonly Term[]): Array<[number, number]> {
  // Words of ASCII letters and digits fold by lower-casing alone (same length, same offsets): the tokens are looked
  // for, not every word read. That holds for a line with emoji, dashes or quotes too, as long as no letter, digit or
  // mark past ASCII can join a word (the demo's and real summaries' 🚀 and — are not word characters).
  if (isAscii(line) || !NON_ASCII_WORD_CHAR.test(line)) return asciiMatches(line.toLowerCase(), terms);
  // A line with a letter, digit or mark past ASCII (Café, naïve): its other words still skip the Unicode fold.
  const out: Array<[number, number]> = [];
  for (const m of line.matchAll(WORD)) {
    const word = m[0];
    if (tokenMatches(isAscii(word) ? word.toLowerCase() : fold(word), terms)) out.push([m.index, m.index + word.length]);
  }
  return out;
}

/** Lines are read up to this many characters: an unbroken 100,000-character line's start is enough for a snippet. */
const LINE_CHARS = 20_000;

/**
 * The matching words of a lower-cased ASCII line, found from the tokens rather than word by word: each place a token
 * occurs at the start of a word, with that word's end. As [start, end) ranges, in order; each word once.
 */
function asciiMatches(lower: string, terms: readonly Term[]): Array<[number, number]> {
  const ends = new Map<number, number>();
  for (const t of terms) {
    t.tokens.forEach((token, i) => {
      const prefix = t.prefix && i === t.tokens.length - 1;
      for (let at = lower.indexOf(token); at !== -1; at = lower.indexOf(token, at + 1)) {
        if (at > 0 && isWordCode(lower.charCodeAt(at - 1))) continue;
        let end = at + token.length;
        while (end < lower.length && isWordCode(lower.charCodeAt(end))) end++;
        if (end - at === token.length || prefix) ends.set(at, end);
      }
    });
  }
  return [...ends].sort((a, b) => a[0] - b[0]);
}

/** The line with the most matching words (the first of equals) and their ranges in it. */
function bestAnyLine(body: string, lines: readonly string[], terms: readonly Term[]): { offset: number; ranges: Array<[number, number]> } {
  const whole = lines.every((line) => line.length <= LINE_CHARS) && (isAscii(body) || !NON_ASCII_WORD_CHAR.test(body));
  if (whole) return bestAsciiLine(body.toLowerCase(), lines, terms);
  let best = { offset: 0, ranges: [] as Array<[number, number]> };
  lines.forEach((line, offset) => {
    const ranges = matchRanges(line.length > LINE_CHARS ? line.slice(0, LINE_CHARS) : line, terms);
    if (ranges.length > best.ranges.length) best = { offset, ranges };
  });
  return best;
}

/**
 * `bestAnyLine` of a chunk whose every line takes the ASCII path and is read whole: the matches found once in the
 * lower-cased chunk (a match never spans a line: a line break is no word character), then counted line by line.
 */
function bestAsciiLine(
  lower: string,
  lines: readonly string[],
  terms: readonly Term[],
): { offset: number; ranges: Array<[number, number]> } {
  const all = asciiMatches(lower, terms);
  let best = { offset: 0, from: 0, to: 0 };
  let at = 0;
  let lineStart = 0;
  lines.forEach((line, offset) => {
    const lineEnd = lineStart + line.length;
    const from = at;
    while (at < all.length && (all[at] as [number, number])[0] < lineEnd) at++;
    if (at - from > best.to - best.from) best = { offset, from, to: at };
    lineStart = lineEnd + 1;
  });
  const start = lines.slice(0, best.offset).reduce((sum, line) => sum + line.length + 1, 0);
  const ranges = all.slice(best.from, best.to).map(([s, e]): [number, number] => [s - start, e - start]);
  return { offset: best.offset, ranges };
}

/** The chunk's line with the most matching words (the first of equals), cut around its first match. */
export function bestLine(body: string, terms: readonly Term[]): { offset: number; snippet: string; highlights: Array<[number, number]> } {
  const lines = body.split('\n');
  const best = bestAnyLine(body, lines, terms);
  const line = (lines[best.offset] ?? '').replace(/\r$/, '');
  const first = best.ranges[0]?.[0] ?? 0;
  const start = line.length <= SNIPPET_CHARS ? 0 : Math.max(0, Math.min(first - 40, line.length - SNIPPET_CHARS));
  const end = Math.min(line.length, start + SNIPPET_CHARS);
  const lead = start > 0 ? '…' : '';
  const snippet = `${lead}${line.slice(start, end).trimEnd()}${end < line.length ? '…' : ''}`;
  const highlights = best.ranges
    .filter(([s, e]) => s >= start && e <= end)
    .map(([s, e]): [number, number] => [s - start + lead.length, e - start + lead.length]);
  return { offset: best.offset, snippet, highlights };
}

export interface HitRow {
  id: number;
  version: MemoryVersion;
  path: string;
  kind: FileKind;
  line: number;
  project: string | null;
  body: string;
  score: number;
}

/** A chunk as a hit: its best line for the query's terms (the first line when none matches), and the score given. */
export function hitOf(row: Omit<HitRow, 'id' | 'score'>, terms: readonly Term[], score: number): SearchHit {
  const best = bestLine(row.body, terms);
  return {
    version: row.version,
    relPath: row.path,
    kind: row.kind,
    line: Number(row.line) + best.offset,
    score,
    snippet: best.snippet,
    highlights: best.highlights,
    project: row.project,
  };
}

const WHERE = 'chunks_fts MATCH ? AND (? IS NULL OR version = ?) AND (? IS NULL OR kind = ?) AND (? IS NULL OR project = ?)';

const filtersOf = (input: SearchInput) => [
  input.version ?? null,
  input.version ?? null,
  input.kind ?? null,
  input.kind ?? null,
  input.project ?? null,
  input.project ?? null,
];

/**
 * The top chunks by BM25 (the schema's `rank`, bm25(1.0, 4.0), as a plain function), then only their columns read: a
 * third faster than FTS5's own `ORDER BY rank` over a few thousand matches, in the same order; ties by chunk id, so the
 * order never rests on how SQLite's sorter happens to keep equal rows.
 */
const RANKED = `SELECT f.rowid AS id, f.version, f.path, f.kind, f.line, f.project, f.body, top.score
  FROM (SELECT rowid AS id, bm25(chunks_fts, 1.0, 4.0) AS score FROM chunks_fts WHERE ${WHERE} ORDER BY score, id LIMIT ?) AS top
  JOIN chunks_fts AS f ON f.rowid = top.id ORDER BY top.score, top.id`;
/** With a filter FTS5's `ORDER BY rank` is the faster: it ranks first and reads a row's place only until the limit. */
const RANKED_FILTERED = `SELECT rowid AS id, version, path, kind, line, project, body, rank AS score FROM chunks_fts WHERE ${WHERE} ORDER BY rank LIMIT ?`;

/** The BM25 ranking with each hit's chunk id (hybrid search fuses it with the vector ranking by chunk). */
export function rankedChunks(db: Database.Database, input: SearchInput, limit: number): Array<{ id: number; hit: SearchHit }> {
  const terms = parseQuery(input.query);
  if (terms.length === 0) return [];
  const filtered = input.version !== undefined || input.kind !== undefined || input.project !== undefined;
  const rows = stmt<HitRow>(db, filtered ? RANKED_FILTERED : RANKED).all(ftsQuery(terms), ...filtersOf(input), limit);
  return rows.map((row) => ({ id: row.id, hit: hitOf(row, terms, Math.round(-row.score * 1000) / 1000) }));
}

/** Ranked hits for `input.query` (BM25 over text and, weighted up, file names and titles); no terms, no hits. */
export function searchIndex(db: Database.Database, input: SearchInput): { hits: SearchHit[]; total: number } {
  const terms = parseQuery(input.query);
  if (terms.length === 0) return { hits: [], total: 0 };
  const limit = input.limit ?? DEFAULT_LIMIT;
  return cachedAnswer(db, input, limit, () => {
    const hits = rankedChunks(db, input, limit).map((r) => r.hit);
    // Fewer hits than asked for: they are every match, and counting them again would only repeat the FTS query.
    if (hits.length < limit) return { hits, total: hits.length };
    const total =
      stmt<{ n: number }>(db, `SELECT count(*) AS n FROM (SELECT 1 FROM chunks_fts WHERE ${WHERE} LIMIT 10000)`).get(
        ftsQuery(terms),
        ...filtersOf(input),
      )?.n ?? 0;
    return { hits, total };
  });
}

/** Named places for the command palette (blocks, tasks, scopes, headings, rollout titles), every word a prefix. */
export function searchBlocks(db: Database.Database, query: string, limit = 20): BlockHit[] {
  const terms = parseQuery(query).map((t) => ({ ...t, prefix: true }));
  if (terms.length === 0) return [];
  return stmt<BlockHit>(
    db,
    `SELECT b.version, b.path AS relPath, b.kind, b.line, b.end_line AS endLine, b.title, b.project
     FROM blocks_fts JOIN blocks b ON b.id = blocks_fts.rowid WHERE blocks_fts MATCH ? ORDER BY blocks_fts.rank LIMIT ?`,
  ).all(ftsQuery(terms), limit);
}

/** Projects the index knows, with how many files mention each (for the search view's filter). */
export function indexProjects(db: Database.Database): Array<{ project: string; files: number }> {
  return stmt<{ project: string; files: number }>(
    db,
    'SELECT project, count(DISTINCT version || path) AS files FROM chunks WHERE project IS NOT NULL GROUP BY project ORDER BY files DESC, project LIMIT 200',
  ).all();
}
