// Three-way merge of one text (base, theirs = the disk now, ours = the proposal) with node-diff3, as change blocks.
import { appendAll } from '../platform/append';
import { itemAt } from '../platform/indexed';
import { diffArrays } from 'diff/lib/diff/array.js';
import { diff3Merge } from 'node-diff3';
import { type ChangeBlock, diffLineArrays, pushBlocks, splitLines } from './lines';

/** A change from theirs to the merged text; `conflict` marks a region both sides changed (merged holds ours there). */
export interface MergedBlock extends ChangeBlock {
  /** For a conflict: its lines in the base and in ours as given (the merged text holds ours' lines at `newIdx`). */
  conflict: { baseIdx: number; baseLen: number; oursIdx: number; oursLen: number } | null;
}

export interface MergeResult {
  /** The merge base's lines as compared (line endings possibly converted to theirs', see `eolNote`). */
  base: string[];
  theirs: string[];
  /** Theirs with ours' changes: one-sided changes kept, conflicting regions holding ours' lines. */
  merged: string[];
  /** Theirs -> merged, in order. */
  blocks: MergedBlock[];
  /** Set when the disk switched line endings and the proposal's lines were converted to follow. */
  eolNote: string | null;
}

type Eol = 'lf' | 'crlf' | 'mixed' | 'none';

function eolOf(text: string): Eol {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  if (crlf === 0 && lf === 0) return 'none';
  return crlf === 0 ? 'lf' : lf === 0 ? 'crlf' : 'mixed';
}

const toEol = (text: string, eol: 'lf' | 'crlf') => (eol === 'crlf' ? text.replace(/\n/g, '\r\n') : text.replace(/\r\n/g, '\n'));

/**
 * When the disk converted the whole file to other line endings (an editor, git's autocrlf), every line differs from the
 * base and every proposed change would conflict. The base and the proposal are converted to the disk's endings first,
 * so only real changes are compared; a proposal that itself switched endings is left as it is.
 */
function alignEol(base: string, theirs: string, ours: string): { base: string; ours: string; note: string | null } {
  // Most memory files have no CR at all: nothing to align, and no need to count line endings in 15 MB of text.
  if (!base.includes('\r') && !theirs.includes('\r')) return { base, ours, note: null };
  const target = eolOf(theirs);
  const from = eolOf(base);
  if ((target !== 'lf' && target !== 'crlf') || (from !== 'lf' && from !== 'crlf') || from === target) return { base, ours, note: null };
  const oursEol = eolOf(ours);
  const convertOurs = oursEol === from || oursEol === 'none';
  return {
    base: toEol(base, target),
    ours: convertOurs ? toEol(ours, target) : ours,
    note: `The file on disk now uses ${target === 'crlf' ? 'CRLF' : 'LF'} line endings; the proposal's lines were converted to match.`,
  };
}

/** Myers' edit budget: 100 scattered edits on a 58,000-line file need about 200; past the budget the robust path takes over. */
const MAX_MYERS_WORK = 40_000_000;

/** Windows tried around a mismatch, and the equal lines that must follow a change for it to count as settled. */
const WINDOWS = [16, 64, 256, 1024];
const SETTLED = 3;
const MAX_WINDOW_WORK = 4_000_000;

/**
 * The change starting at a[i] / b[j] (which differ): Myers on a small window, grown until the change is followed by
 * SETTLED equal lines inside it (or reaches the end of both). Null when no window settles it.
 */
function changeAt(a: readonly string[], b: readonly string[], i: number, j: number, work: { done: number }): ChangeBlock | null {
  for (const size of WINDOWS) {
    const wa = a.slice(i, i + size);
    const wb = b.slice(j, j + size);
    work.done += wa.length + wb.length;
    const atEnd = i + size >= a.length && j + size >= b.length;
    const parts = diffArrays(wa, wb, { maxEditLength: size }) ?? [];
    let oldLen = 0;
    let newLen = 0;
    for (const part of parts) {
      if (!part.added && !part.removed && part.count >= SETTLED) return { oldIdx: i, oldLen, newIdx: j, newLen };
      // Changes a few equal lines apart are one change here; the merge re-diffs what it keeps, so nothing is lost.
      if (part.added) newLen += part.count;
      else if (part.removed) oldLen += part.count;
      else [oldLen, newLen] = [oldLen + part.count, newLen + part.count];
    }
    if (atEnd && parts.length > 0) return { oldIdx: i, oldLen: a.length - i, newIdx: j, newLen: b.length - j };
  }
  return null;
}

/**
 * For files that share almost every line (a disk edit, a proposal's edits): a linear walk over equal lines and Myers only
 * on small windows where they differ, about ten times faster than Myers over 58,000 lines. Null when the changes are not
 * sparse (a window cannot settle one, or the windows add up), so the caller diffs the whole file instead.
 */
function sparseBlocks(a: readonly string[], b: readonly string[]): ChangeBlock[] | null {
  const out: ChangeBlock[] = [];
  const work = { done: 0 };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    const block = changeAt(a, b, i, j, work);
    if (!block || work.done > MAX_WINDOW_WORK) return null;
    out.push(block);
    i += block.oldLen;
    j += block.newLen;
  }
  if (i < a.length || j < b.length) out.push({ oldIdx: i, oldLen: a.length - i, newIdx: j, newLen: b.length - j });
  return out;
}

/** Change blocks between two line arrays: the sparse walk when it settles every change, else Myers, else the robust diff. */
function blocksOf(a: readonly string[], b: readonly string[]): ChangeBlock[] {
  const sparse = sparseBlocks(a, b);
  if (sparse) return sparse;
  let prefix = 0;
  const min = Math.min(a.length, b.length);
  while (prefix < min && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (suffix < min - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  if (midA.length === 0 && midB.length === 0) return [];
  if (midA.length === 0 || midB.length === 0) return [{ oldIdx: prefix, oldLen: midA.length, newIdx: prefix, newLen: midB.length }];
  const parts = diffArrays(midA, midB, { maxEditLength: Math.max(64, Math.floor(MAX_MYERS_WORK / (midA.length + midB.length))) });
  if (!parts) return diffLineArrays(a, b);
  const out: ChangeBlock[] = [];
  pushBlocks(parts, prefix, prefix, out);
  return out;
}

/** A stretch of the base touched by either side (blocks that overlap or touch belong together, as in diff3), with each side's range. */
interface Segment {
  oStart: number;
  oEnd: number;
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
  aBlocks: ChangeBlock[];
  bBlocks: ChangeBlock[];
}

function segmentsOf(theirs: readonly ChangeBlock[], ours: readonly ChangeBlock[]): Segment[] {
  const events = [...theirs.map((block) => ({ block, side: 'a' as const })), ...ours.map((block) => ({ block, side: 'b' as const }))].sort(
    (x, y) => x.block.oldIdx - y.block.oldIdx,
  );
  const segments: Segment[] = [];
  let dA = 0;
  let dB = 0;
  let current: Segment | null = null;
  const close = () => {
    if (!current) return;
    current.aEnd = current.oEnd + dA;
    current.bEnd = current.oEnd + dB;
    segments.push(current);
    current = null;
  };
  for (const { block, side } of events) {
    // node-diff3's rule: a hunk starting at or before the region's end joins it (touching changes conflict).
    if (current && block.oldIdx > current.oEnd) close();
    current ??= {
      oStart: block.oldIdx,
      oEnd: block.oldIdx,
      aStart: block.oldIdx + dA,
      aEnd: 0,
      bStart: block.oldIdx + dB,
      bEnd: 0,
      aBlocks: [],
      bBlocks: [],
    };
    current.oEnd = Math.max(current.oEnd, block.oldIdx + block.oldLen);
    if (side === 'a') {
      current.aBlocks.push(block);
      dA += block.newLen - block.oldLen;
    } else {
      current.bBlocks.push(block);
      dB += block.newLen - block.oldLen;
    }
  }
  close();
  return segments;
}

const sameLines = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((line, i) => line === y[i]);

/**
 * node-diff3 decides every segment: each run both sides left alone and each side's version of each segment is one token
 * (equal versions share a token), so its merge sees exactly "one side changed", "both changed alike" or "a conflict".
 * Feeding it the lines themselves is not possible: its LCS is cubic on repeated lines (8,000 lines of a MEMORY.md took 76 s).
 */
function segmentOutcomes(segments: readonly Segment[], a: readonly string[], b: readonly string[]): Array<'theirs' | 'ours' | 'conflict'> {
  const o: string[] = [];
  const ta: string[] = [];
  const tb: string[] = [];
  segments.forEach((s, k) => {
    for (const side of [o, ta, tb]) side.push(`r${k}`);
    const aChanged = s.aBlocks.length > 0;
    const bChanged = s.bBlocks.length > 0;
    const alike = aChanged && bChanged && sameLines(a.slice(s.aStart, s.aEnd), b.slice(s.bStart, s.bEnd));
    o.push(`s${k}o`);
    ta.push(aChanged ? `s${k}a` : `s${k}o`);
    tb.push(!bChanged ? `s${k}o` : alike ? `s${k}a` : `s${k}b`);
  });
  for (const side of [o, ta, tb]) side.push(`r${segments.length}`);
  const outcomes: Array<'theirs' | 'ours' | 'conflict'> = [];
  for (const region of diff3Merge(ta, o, tb)) {
    if (region.conflict) {
      for (const token of region.conflict.o) outcomes[Number(token.slice(1, -1))] = 'conflict';
      continue;
    }
    for (const token of region.ok ?? []) {
      if (token.startsWith('r')) continue;
      const k = Number(token.slice(1, -1));
      outcomes[k] = token.endsWith('b') ? 'ours' : 'theirs';
    }
  }
  return segments.map((_, k) => outcomes[k] ?? 'theirs');
}

/** Above this many lines (three sides together) a conflicting segment stays one conflict instead of node-diff3's finer pass (about 15 ms at this size). */
const LIBRARY_LINES = 1200;

type Piece = { ok: string[] } | { conflict: { a: string[]; aIndex: number; o: string[]; oIndex: number; b: string[]; bIndex: number } };

/** A segment both sides changed differently: node-diff3 on its lines finds what can still be merged inside it. */
function refine(aSeg: string[], oSeg: string[], bSeg: string[]): Piece[] {
  if (aSeg.length + oSeg.length + bSeg.length > LIBRARY_LINES)
    return [{ conflict: { a: aSeg, aIndex: 0, o: oSeg, oIndex: 0, b: bSeg, bIndex: 0 } }];
  return diff3Merge(aSeg, oSeg, bSeg).map((region): Piece => (region.conflict ? { conflict: region.conflict } : { ok: region.ok ?? [] }));
}

/** Above this many lines (both sides of one block together) a coarse change block is kept as it is. */
const EXACT_LINES = 4000;

/**
 * `blocksOf`, with each block the sparse walk joined across a few equal lines diffed again exactly: a line both sides
 * left alone between two of ours' changes stays context, not a removal and an addition. It matters beyond looks: a
 * masked secret on such a line would otherwise be "written from the proposal", which Apply refuses.
 */
function exactBlocks(a: readonly string[], b: readonly string[]): ChangeBlock[] {
  const out: ChangeBlock[] = [];
  for (const block of blocksOf(a, b)) {
    // A pure insertion or deletion, or one line for one, holds no line both sides share: nothing to find.
    if (block.oldLen === 0 || block.newLen === 0 || block.oldLen + block.newLen < 3 || block.oldLen + block.newLen > EXACT_LINES) {
      out.push(block);
      continue;
    }
    const inner = a.slice(block.oldIdx, block.oldIdx + block.oldLen);
    const fine = diffLineArrays(inner, b.slice(block.newIdx, block.newIdx + block.newLen));
    for (const f of fine)
      out.push({ oldIdx: block.oldIdx + f.oldIdx, oldLen: f.oldLen, newIdx: block.newIdx + f.newIdx, newLen: f.newLen });
  }
  return out;
}

class Emitter {
  readonly merged: string[] = [];
  readonly blocks: MergedBlock[] = [];
  constructor(private readonly theirs: readonly string[]) {}

  /** Theirs lines [from, to) kept as they are. */
  keep(from: number, to: number): void {
    for (let i = from; i < to; i++) this.merged.push(itemAt(this.theirs, i));
  }

  /** Theirs lines [from, to) replaced by `lines`, as minimal blocks. */
  replace(from: number, to: number, lines: readonly string[]): void {
    const at = this.merged.length;
    const old = this.theirs.slice(from, to);
    for (const block of exactBlocks(old, lines)) {
      this.blocks.push({
        oldIdx: from + block.oldIdx,
        oldLen: block.oldLen,
        newIdx: at + block.newIdx,
        newLen: block.newLen,
        conflict: null,
      });
    }
    appendAll(this.merged, lines);
  }

  conflict(from: number, theirsLen: number, ours: readonly string[], at: { baseIdx: number; baseLen: number; oursIdx: number }): void {
    this.blocks.push({
      oldIdx: from,
      oldLen: theirsLen,
      newIdx: this.merged.length,
      newLen: ours.length,
      conflict: { ...at, oursLen: ours.length },
    });
    appendAll(this.merged, ours);
  }
}

function emitConflicting(out: Emitter, s: Segment, o: readonly string[], a: readonly string[], b: readonly string[]): void {
  let aPos = 0;
  let pending: string[] = [];
  const flush = (aTo: number) => {
    out.replace(s.aStart + aPos, s.aStart + aTo, pending);
    pending = [];
    aPos = aTo;
  };
  for (const piece of refine(a.slice(s.aStart, s.aEnd), o.slice(s.oStart, s.oEnd), b.slice(s.bStart, s.bEnd))) {
    if ('ok' in piece) {
      appendAll(pending, piece.ok);
      continue;
    }
    const c = piece.conflict;
    flush(c.aIndex);
    out.conflict(s.aStart + c.aIndex, c.a.length, c.b, { baseIdx: s.oStart + c.oIndex, baseLen: c.o.length, oursIdx: s.bStart + c.bIndex });
    aPos = c.aIndex + c.a.length;
  }
  flush(s.aEnd - s.aStart);
}

/** Merges `ours` and `theirs`, both descended from `base`; conflicting regions hold ours' lines and are marked. */
export function mergeTexts(baseText: string, theirsText: string, oursText: string): MergeResult {
  const aligned = alignEol(baseText, theirsText, oursText);
  const o = splitLines(aligned.base);
  const a = splitLines(theirsText);
  const b = splitLines(aligned.ours);
  const segments = segmentsOf(blocksOf(o, a), blocksOf(o, b));
  const outcomes = segmentOutcomes(segments, a, b);
  const out = new Emitter(a);
  let aPos = 0;
  segments.forEach((s, k) => {
    out.keep(aPos, s.aStart);
    const outcome = outcomes[k];
    if (outcome === 'theirs') out.keep(s.aStart, s.aEnd);
    else if (outcome === 'ours') out.replace(s.aStart, s.aEnd, b.slice(s.bStart, s.bEnd));
    else emitConflicting(out, s, o, a, b);
    aPos = s.aEnd;
  });
  out.keep(aPos, a.length);
  return { base: o, theirs: a, merged: out.merged, blocks: out.blocks, eolNote: aligned.note };
}
