// Matches the blocks of two versions side by side: same content, then same identity, then similar content (renamed).
import type { BlockNode } from './tree';

export interface Side {
  lines: readonly string[];
  nodes: readonly BlockNode[];
}

/** Pairs of indexes (old, new), sorted by the old index. */
export type Pairs = Array<[number, number]>;

/** A block's text without its trailing blank lines: what "the same content" compares. */
export function contentOf(lines: readonly string[], node: { start: number; end: number }): string {
  let end = node.end;
  while (end > node.start + 1 && (lines[end - 1] as string).trim() === '') end--;
  let text = '';
  for (let i = node.start; i < end; i++) text += lines[i] as string;
  return text;
}

/** Lines that say something (trimmed, not blank) for similarity; a block with none is never "similar". */
function signatureLines(lines: readonly string[], node: BlockNode): Set<string> {
  const out = new Set<string>();
  for (let i = node.start; i < node.end; i++) {
    const line = (lines[i] as string).trim();
    if (line !== '') out.add(line);
  }
  return out;
}

/** Dice coefficient of two line sets. */
function similarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const line of a) if (b.has(line)) shared++;
  return (2 * shared) / (a.size + b.size);
}

/** Blocks this similar (or more) with different identities count as the same block, renamed. */
export const RENAME_THRESHOLD = 0.5;
/** A line held by more blocks than this on one side says nothing about which blocks correspond (`### keywords`). */
const COMMON_LINE = 8;

interface Matcher {
  oldSide: Side;
  newSide: Side;
  oldFree: boolean[];
  newFree: boolean[];
  pairs: Pairs;
}

function pair(m: Matcher, i: number, j: number): void {
  m.oldFree[i] = false;
  m.newFree[j] = false;
  m.pairs.push([i, j]);
}

function indexBy<T>(count: number, keyOf: (i: number) => T): Map<T, number[]> {
  const map = new Map<T, number[]>();
  for (let i = 0; i < count; i++) {
    const key = keyOf(i);
    const list = map.get(key);
    if (list) list.push(i);
    else map.set(key, [i]);
  }
  return map;
}

/** Same identity and byte-equal content: paired in order (duplicates k-th with k-th). */
function matchExact(m: Matcher): void {
  const text = (side: Side, i: number) => `${(side.nodes[i] as BlockNode).key}\u0001${contentOf(side.lines, side.nodes[i] as BlockNode)}`;
  const byText = indexBy(m.newSide.nodes.length, (j) => text(m.newSide, j));
  for (let i = 0; i < m.oldSide.nodes.length; i++) {
    const candidates = byText.get(text(m.oldSide, i));
    const j = candidates?.shift();
    if (j !== undefined) pair(m, i, j);
  }
}

/** Greedy best-first pairing of candidate pairs by score (ties keep document order). */
function pairByScore(m: Matcher, candidates: Array<[number, number, number]>, minScore: number): void {
  candidates.sort((x, y) => y[2] - x[2] || x[0] - y[0] || x[1] - y[1]);
  for (const [i, j, score] of candidates) if (score >= minScore && m.oldFree[i] && m.newFree[j]) pair(m, i, j);
}

/** Same identity, different content: one each side pairs; duplicates pair by similarity, the rest in order. */
function matchByKey(m: Matcher, sigOld: Array<Set<string>>, sigNew: Array<Set<string>>): void {
  const free = (side: Side, isFree: boolean[]) => indexBy(side.nodes.length, (i) => (isFree[i] ? (side.nodes[i] as BlockNode).key : ''));
  const olds = free(m.oldSide, m.oldFree);
  const news = free(m.newSide, m.newFree);
  for (const [key, is] of olds) {
    const js = key === '' ? undefined : news.get(key);
    if (!js) continue;
    if (is.length > 1 || js.length > 1)
      pairByScore(
        m,
        is.flatMap((i) => js.map((j): [number, number, number] => [i, j, similarity(sigOld[i] as Set<string>, sigNew[j] as Set<string>)])),
        Number.MIN_VALUE,
      );
    const restOld = is.filter((i) => m.oldFree[i]);
    const restNew = js.filter((j) => m.newFree[j]);
    for (let k = 0; k < Math.min(restOld.length, restNew.length); k++) pair(m, restOld[k] as number, restNew[k] as number);
  }
}

/** Different identity, similar content (a renamed task group, an edited pointer file name): found through shared lines. */
function matchRenamed(m: Matcher, sigOld: Array<Set<string>>, sigNew: Array<Set<string>>): void {
  const holders = new Map<string, number[]>();
  sigNew.forEach((sig, j) => {
    if (!m.newFree[j]) return;
    for (const line of sig) {
      const list = holders.get(line);
      if (!list) holders.set(line, [j]);
      else if (list.length <= COMMON_LINE) list.push(j);
    }
  });
  const candidates: Array<[number, number, number]> = [];
  sigOld.forEach((sig, i) => {
    if (!m.oldFree[i]) return;
    const seen = new Set<number>();
    for (const line of sig) {
      const list = holders.get(line);
      if (list && list.length <= COMMON_LINE) for (const j of list) seen.add(j);
    }
    const type = (m.oldSide.nodes[i] as BlockNode).type;
    for (const j of seen)
      if ((m.newSide.nodes[j] as BlockNode).type === type) candidates.push([i, j, similarity(sig, sigNew[j] as Set<string>)]);
  });
  pairByScore(m, candidates, RENAME_THRESHOLD);
}

/** Matched blocks of two sibling lists, sorted by old index. */
export function matchBlocks(oldSide: Side, newSide: Side): Pairs {
  const m: Matcher = { oldSide, newSide, oldFree: oldSide.nodes.map(() => true), newFree: newSide.nodes.map(() => true), pairs: [] };
  matchExact(m);
  const sigOld = oldSide.nodes.map((n) => signatureLines(oldSide.lines, n));
  const sigNew = newSide.nodes.map((n) => signatureLines(newSide.lines, n));
  matchByKey(m, sigOld, sigNew);
  matchRenamed(m, sigOld, sigNew);
  return m.pairs.sort((x, y) => x[0] - y[0]);
}

/** The pairs that keep their order on both sides (longest increasing run of new indexes); the others moved. */
export function anchorsOf(pairs: Pairs): Set<number> {
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  pairs.forEach((p, k) => {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((pairs[tails[mid] as number] as [number, number])[1] < p[1]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[k] = tails[lo - 1] as number;
    tails[lo] = k;
  });
  const kept = new Set<number>();
  for (let k = tails.length ? (tails[tails.length - 1] as number) : -1; k !== -1; k = prev[k] as number) kept.add(k);
  return kept;
}
