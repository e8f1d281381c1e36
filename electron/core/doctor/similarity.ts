// Near-duplicate detection: normalised word shingles, exact Jaccard, and an all-pairs join with prefix filtering.
import { StudioFailure } from '../platform/errors';
import { itemAt } from '../platform/indexed';

/**
 * The similarity threshold for `duplicate`: Jaccard over word 3-grams of the normalised lines (numbers, dates, ids
 * and rollout file names replaced; template headings, applies_to and pointer bullets left out). Measured on the
 * heavy demo home and on the realistic cases in test/unit/doctor/similarity.test.ts:
 * - a learning written again by a later consolidation (Codex's "ledger": the demo's "data-pipeline ingestion" and
 *   "…, earlier work <dates>" blocks, or one summary topic under two dates) scores 0.73–1.0;
 * - the same topic reworded or cut down (the summary's "Older Memory Topics" copy without its learnings, a block
 *   retitled with a bullet added and one reworded) scores 0.33–0.55;
 * - distinct entries of the same project (ingestion vs scheduling, CI vs tax rules), which share the cwd, the
 *   project's tools and phrases like "a follow-up remains open", score 0.08 at most; bullets on a related subject
 *   ("use Decimal for money" vs "round per line, then sum") share no 3-gram at all.
 * 0.3 sits in that gap, four times above the highest distinct pair, just under the lowest reworded repeat.
 */
export const DUPLICATE_THRESHOLD = 0.3;

/** Entries with fewer shingles than this are too short to call duplicates of anything (a heading alone). */
export const MIN_SHINGLES = 3;

const SHINGLE = 3;

/** Lines the consolidation template puts in every block: they say nothing about what the block is about. */
const TEMPLATE_LINE =
  /^\s*(?:#{2,3}\s+(?:rollout_summary_files|extension_resource_files|keywords|user preferences|reusable knowledge|failures and how to do differently)\s*$|applies_to:|-\s+(?:rollout_summaries|extensions)\/|---\s*$)/i;

/**
 * One pass over the lower-cased line: at each position the first alternative that matches wins, so a date is not
 * first eaten as numbers and a rollout file name not as a date.
 */
const NORMALISE = new RegExp(
  [
    String.raw`(\[task \d+\]|\[ad-hoc note\]|thread_id\s*[=:]\s*\S+)`,
    String.raw`(rollout_summaries\/[^\s),;]+)`,
    String.raw`(\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b)`,
    String.raw`(\b\d{4}-\d{2}-\d{2}(?:[t ][0-9:.\-+z]+)?)`,
    String.raw`(\b(?=[0-9a-f]*\d)[0-9a-f]{7,64}\b)`,
    String.raw`(\d+(?:[.,]\d+)*)`,
  ].join('|'),
  'g',
);
const PLACEHOLDERS = [' ', ' <file> ', ' <id> ', ' <date> ', ' <hex> ', '<n>'];
const WORD = /[\p{L}\p{N}_<>#+]+/gu;

/** The words of one line as the similarity sees them: lower case, numbers/dates/ids/rollout files as placeholders. */
export function normalisedWords(line: string): string[] {
  const text = line
    .toLowerCase()
    .replace(NORMALISE, (...groups: unknown[]) => PLACEHOLDERS.find((_, k) => groups[k + 1] !== undefined) ?? ' ');
  return text.match(WORD) ?? [];
}

/** A line's normalised form (its words joined), '' for a template line or one without words. */
export function normalisedLine(line: string): string {
  if (TEMPLATE_LINE.test(line)) return '';
  return normalisedWords(line).join(' ');
}

/** 32-bit FNV-1a: shingles only need to be told apart, not kept secret. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Three word hashes into one shingle hash, order-sensitive (murmur3's finaliser), without building the string. */
function mix(a: number, b: number, c: number): number {
  let h = Math.imul(a, 0xcc9e2d51) ^ Math.imul((b << 15) | (b >>> 17), 0x1b873593) ^ Math.imul((c << 7) | (c >>> 25), 0xe6546b64);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The shingle hashes of one normalised line; Codex's ledgers repeat lines, so each distinct line is hashed once. */
export function lineShingles(line: string, cache: Map<string, number[]>): number[] {
  let out = cache.get(line);
  if (out) return out;
  const words = line.split(' ').map(hash);
  out = [];
  if (words.length < SHINGLE) out.push(hash(line));
  else {
    // A window of the last three words, the shingle pushed once it is full.
    let first = 0;
    let second = 0;
    for (const [i, third] of words.entries()) {
      if (i >= SHINGLE - 1) out.push(mix(first, second, third));
      first = second;
      second = third;
    }
  }
  cache.set(line, out);
  return out;
}

/**
 * The sorted, distinct 3-word shingles of normalised lines (`normalisedLine`), taken line by line (a line break is a
 * boundary in Markdown bullets); a line of one or two words counts as one shingle. `cache` may be shared by calls.
 */
export function shinglesOfNormalised(lines: readonly string[], cache = new Map<string, number[]>()): Uint32Array {
  const set = new Set<number>();
  for (const line of lines) {
    if (line === '') continue;
    for (const h of lineShingles(line, cache)) set.add(h);
  }
  return Uint32Array.from(set).sort();
}

/** `shinglesOfNormalised` of raw lines. */
export function shingles(lines: readonly string[]): Uint32Array {
  return shinglesOfNormalised(lines.map(normalisedLine));
}

/** |a ∩ b| of two sorted arrays. */
export function intersectionSize(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    // Checked here, not through itemAt: this is the join's inner loop, and a local read stays monomorphic.
    const x = a[i];
    const y = b[j];
    if (x === undefined || y === undefined) throw new StudioFailure('Internal', `Index ${i} or ${j} of two sets of shingles was a hole.`);
    if (x === y) {
      n++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return n;
}

export function jaccard(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length === 0 && b.length === 0) return 0;
  const shared = intersectionSize(a, b);
  return shared / (a.length + b.length - shared);
}

export interface SimilarPair {
  a: number;
  b: number;
  similarity: number;
}

/**
 * Which sets are alike: identical sets form a group (similarity 1 inside it), and groups whose sets have Jaccard ≥ the
 * threshold are linked. Thousands of identical raw memories stay one group instead of millions of pairs.
 */
export interface SimilarityGraph {
  /** The group of each set, or -1 for a set too small to judge. */
  groupOf: Int32Array;
  /** Members of each group, in index order. */
  groups: number[][];
  /** Linked groups of each group, with the similarity of their sets. */
  links: { group: number; similarity: number }[][];
}

/**
 * The graph of every pair of sets with Jaccard ≥ `threshold`, exactly (AllPairs with prefix filtering): identical
 * sets are grouped first, then each distinct set's rarest tokens index it, so only sets sharing a rare shingle are
 * ever compared. Sets smaller than MIN_SHINGLES take no part.
 */
export function similarityGraph(sets: readonly Uint32Array[], threshold = DUPLICATE_THRESHOLD): SimilarityGraph {
  const groupOf = new Int32Array(sets.length).fill(-1);
  const byKey = new Map<string, number>();
  const groups: number[][] = [];
  for (const [i, set] of sets.entries()) {
    if (set.length < MIN_SHINGLES) continue;
    const key = set.join(',');
    let g = byKey.get(key);
    if (g === undefined) {
      byKey.set(key, (g = groups.length));
      groups.push([]);
    }
    itemAt(groups, g).push(i);
    groupOf[i] = g;
  }
  const links: SimilarityGraph['links'] = groups.map(() => []);
  for (const { a, b, similarity } of joinDistinct(
    groups.map((members) => itemAt(sets, itemAt(members, 0))),
    threshold,
  )) {
    itemAt(links, a).push({ group: b, similarity });
    itemAt(links, b).push({ group: a, similarity });
  }
  return { groupOf, groups, links };
}

/** Every similar pair, a < b (for tests and small inputs: a big group expands quadratically). */
export function similarPairs(sets: readonly Uint32Array[], threshold = DUPLICATE_THRESHOLD): SimilarPair[] {
  const graph = similarityGraph(sets, threshold);
  const pairs: SimilarPair[] = [];
  for (const [g, members] of graph.groups.entries()) {
    for (const [x, a] of members.entries()) for (const b of members.slice(x + 1)) pairs.push({ a, b, similarity: 1 });
    for (const link of graph.links[g] ?? []) {
      if (link.group < g) continue;
      for (const x of members)
        for (const y of graph.groups[link.group] ?? [])
          pairs.push(x < y ? { a: x, b: y, similarity: link.similarity } : { a: y, b: x, similarity: link.similarity });
    }
  }
  return pairs.sort((p, q) => p.a - q.a || p.b - q.b);
}

/** The prefix-filtered join over distinct sets (indices into `sets`). */
function joinDistinct(sets: readonly Uint32Array[], threshold: number): SimilarPair[] {
  const freq = new Map<number, number>();
  for (const set of sets) for (const token of set) freq.set(token, (freq.get(token) ?? 0) + 1);
  // Rarest first (ties by value): a pair over the threshold must share a token among each side's first few.
  const ordered = sets.map((set) => Array.from(set).sort((x, y) => (freq.get(x) as number) - (freq.get(y) as number) || x - y));
  const bySize = sets.map((_, i) => i).sort((x, y) => itemAt(sets, x).length - itemAt(sets, y).length || x - y);
  const index = new Map<number, number[]>();
  const out: SimilarPair[] = [];
  for (const i of bySize) {
    const set = itemAt(sets, i);
    const tokens = itemAt(ordered, i);
    const prefix = set.length - Math.ceil(threshold * set.length) + 1;
    const seen = new Set<number>();
    for (let p = 0; p < prefix; p++) {
      for (const j of index.get(itemAt(tokens, p)) ?? []) {
        if (seen.has(j)) continue;
        seen.add(j);
        // Smaller sets were indexed first; Jaccard ≥ t needs |small| ≥ t·|large|.
        const other = sets[j];
        if (other === undefined)
          throw new StudioFailure('Internal', `Set ${j} of the similarity index is not among its ${sets.length} sets.`);
        if (other.length < threshold * set.length) continue;
        const similarity = jaccard(set, other);
        if (similarity >= threshold) out.push(i < j ? { a: i, b: j, similarity } : { a: j, b: i, similarity });
      }
    }
    for (let p = 0; p < prefix; p++) {
      const token = itemAt(tokens, p);
      const list = index.get(token);
      if (list) list.push(i);
      else index.set(token, [i]);
    }
  }
  return out;
}

export interface Cluster {
  /** The index a merge keeps: the first (topmost) of the cluster. */
  keep: number;
  members: { index: number; similarity: number }[];
}

/**
 * Star clusters in file order: the topmost unassigned entry with similar neighbours keeps them all. Every member is
 * similar to the kept entry itself (no chains A~B~C where A and C differ), which is what a merge into it needs.
 */
export function starClusters(graph: SimilarityGraph): Cluster[] {
  const assigned = new Uint8Array(graph.groupOf.length);
  const clusters: Cluster[] = [];
  for (const [i, g] of graph.groupOf.entries()) {
    if (assigned[i] || g < 0) continue;
    const members: Cluster['members'] = [];
    const take = (group: number, similarity: number) => {
      for (const j of graph.groups[group] ?? []) {
        if (j === i || assigned[j]) continue;
        assigned[j] = 1;
        members.push({ index: j, similarity });
      }
    };
    take(g, 1);
    for (const link of graph.links[g] ?? []) take(link.group, link.similarity);
    if (members.length === 0) continue;
    assigned[i] = 1;
    clusters.push({ keep: i, members: members.sort((x, y) => x.index - y.index) });
  }
  return clusters;
}
