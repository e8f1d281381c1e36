// Real token counts with the o200k_base encoding (gpt-tokenizer ships the ranks in the package: offline, no fetch),
// linear in the input: long pieces are merged with a heap instead of gpt-tokenizer's quadratic scan.
import { createRequire } from 'node:module';
import type * as O200kModule from 'gpt-tokenizer/encoding/o200k_base';

/** The parts of gpt-tokenizer's byte-pair core this counter uses (its public class, reached through the encoding). */
interface BpeCore {
  tokenSplitRegex: RegExp;
  getBpeRankFromString(piece: string): number | undefined;
  getBpeRankFromBytes(bytes: Uint8Array): number | undefined;
  bytePairEncode(piece: string): number[];
}

interface Loaded {
  core: BpeCore;
  split: RegExp;
}

// Loaded on first use: the ranks take ~150 ms to load, which start-up (and a warm CLI run) should not pay.
let loaded: Loaded | null = null;

function load(): Loaded {
  if (loaded) return loaded;
  const module = createRequire(__filename)('gpt-tokenizer/encoding/o200k_base') as typeof O200kModule;
  // The encoding object keeps its core in a field TypeScript marks private; it is plain JS at run time.
  const core = (module.default as unknown as { bytePairEncodingCoreProcessor: BpeCore }).bytePairEncodingCoreProcessor;
  // Our own copy of the split pattern: a shared global regex carries lastIndex between callers.
  loaded = { core, split: new RegExp(core.tokenSplitRegex.source, 'gu') };
  return loaded;
}

/**
 * Pieces up to this many UTF-16 units go through gpt-tokenizer's own merge (fast for short pieces, and cached);
 * longer ones through `heapMergeCount`. gpt-tokenizer rescans every pair after each merge, so one unbroken run of
 * 100,000 letters or brackets took minutes.
 */
const LONG_PIECE = 128;

/** A binary min-heap of pair candidates ordered by (rank, start byte): Codex's BPE merges the leftmost lowest rank first. */
class PairHeap {
  private readonly ranks: number[] = [];
  private readonly starts: number[] = [];
  private readonly parts: number[] = [];

  get size(): number {
    return this.ranks.length;
  }

  private less(a: number, b: number): boolean {
    const ra = this.ranks[a] as number;
    const rb = this.ranks[b] as number;
    return ra < rb || (ra === rb && (this.starts[a] as number) < (this.starts[b] as number));
  }

  private swap(a: number, b: number): void {
    for (const list of [this.ranks, this.starts, this.parts]) [list[a], list[b]] = [list[b] as number, list[a] as number];
  }

  push(rank: number, start: number, part: number): void {
    this.ranks.push(rank);
    this.starts.push(start);
    this.parts.push(part);
    let i = this.ranks.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(i, parent)) break;
      this.swap(i, parent);
      i = parent;
    }
  }

  /** The smallest entry as [rank, part], removed. */
  pop(): [number, number] {
    const top: [number, number] = [this.ranks[0] as number, this.parts[0] as number];
    const last = this.ranks.length - 1;
    this.swap(0, last);
    this.ranks.pop();
    this.starts.pop();
    this.parts.pop();
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.ranks.length && this.less(left, smallest)) smallest = left;
      if (right < this.ranks.length && this.less(right, smallest)) smallest = right;
      if (smallest === i) return top;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}

/**
 * Token count of one piece by byte-pair merging, exactly as tiktoken's `byte_pair_merge` (the leftmost pair with the
 * lowest rank merges first, until no adjacent pair is a token), in O(n log n): parts form a linked list, candidate
 * pairs sit in a heap, and entries made stale by a merge are skipped when popped.
 */
export function heapMergeCount(bytes: Uint8Array, rankOf: (bytes: Uint8Array) => number | undefined): number {
  const n = bytes.length;
  if (n <= 1) return n;
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const pairRank = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  const heap = new PairHeap();
  // A part is identified by its start byte; next[i] === n marks the last part.
  const rankAt = (i: number): number => {
    const j = next[i] as number;
    if (j >= n) return Infinity;
    return rankOf(bytes.subarray(i, next[j])) ?? Infinity;
  };
  for (let i = 0; i < n - 1; i++) {
    pairRank[i] = rankAt(i);
    if (pairRank[i] !== Infinity) heap.push(pairRank[i] as number, i, i);
  }
  pairRank[n - 1] = Infinity;
  let parts = n;
  const alive = new Uint8Array(n).fill(1);
  while (heap.size > 0) {
    const [rank, i] = heap.pop();
    if (!alive[i] || pairRank[i] !== rank) continue; // stale: the part merged away, or its pair changed since
    const j = next[i] as number;
    alive[j] = 0;
    next[i] = next[j] as number;
    if (next[i] < n) prev[next[i]] = i;
    parts--;
    pairRank[i] = rankAt(i);
    if (pairRank[i] !== Infinity) heap.push(pairRank[i], i, i);
    const p = prev[i] as number;
    if (p >= 0) {
      pairRank[p] = rankAt(p);
      if (pairRank[p] !== Infinity) heap.push(pairRank[p], p, p);
    }
  }
  return parts;
}

const encoder = new TextEncoder();

/** o200k_base token count of `text` (0 for the empty string). Special-token strings count as the plain text they are. */
export function countO200kTokens(text: string): number {
  if (text.length === 0) return 0;
  const { core, split } = load();
  const rankOf = (bytes: Uint8Array) => core.getBpeRankFromBytes(bytes);
  let count = 0;
  split.lastIndex = 0;
  for (const [piece] of text.matchAll(split)) {
    if (core.getBpeRankFromString(piece) !== undefined) count++;
    else if (piece.length <= LONG_PIECE) count += core.bytePairEncode(piece).length;
    else count += heapMergeCount(encoder.encode(piece), rankOf);
  }
  return count;
}
