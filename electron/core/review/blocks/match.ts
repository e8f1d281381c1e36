// Matches the blocks of two versions side by side: same content, then same identity, then similar content (renamed).
import { itemAt } from '../../platform/indexed';
import { increasingRun } from '../lines';
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
  while (end > node.start + 1 && itemAt(lines, end - 1).trim() === '') end--;
  let text = '';
  for (let i = node.start; i < end; i++) text += itemAt(lines, i);
  return text;
}

/** Lines that say something (trimmed, not blank) for similarity; a block with none is never "similar". */
function signatureLines(lines: readonly string[], node: BlockNode): Set<string> {
  const out = new Set<string>();
  for (let i = node.start; i < node.end; i++) {
    const line = itemAt(lines, i).trim();
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
  const text = (side: Side, i: number) => {
    const node = itemAt(side.nodes, i);
    return `${node.key}\u0001${contentOf(side.lines, node)}`;
  };
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
  const free = (side: Side, isFree: boolean[]) => indexBy(side.nodes.length, (i) => (isFree[i] ? itemAt(side.nodes, i).key : ''));
  const olds = free(m.oldSide, m.oldFree);
  const news = free(m.newSide, m.newFree);
  for (const [key, is] of olds) {
    const js = key === '' ? undefined : news.get(key);
    if (!js) continue;
    if (is.length > 1 || js.length > 1)
      pairByScore(
        m,
        is.flatMap((i) => js.map((j): [number, number, number] => [i, j, similarity(itemAt(sigOld, i), itemAt(sigNew, j))])),
        Number.MIN_VALUE,
      );
    const restOld = is.filter((i) => m.oldFree[i]);
    const restNew = js.filter((j) => m.newFree[j]);
    for (const [k, i] of restOld.slice(0, restNew.length).entries()) pair(m, i, itemAt(restNew, k));
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
    const type = itemAt(m.oldSide.nodes, i).type;
    for (const j of seen) if (itemAt(m.newSide.nodes, j).type === type) candidates.push([i, j, similarity(sig, itemAt(sigNew, j))]);
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
  return new Set(increasingRun(pairs));
}
