// Which lines of a review's hunks hold a secret, so the review marks each one and never lets an added one ride inside a
// larger change decided all at once: found by the one secret engine in real texts, or given for stored (masked) ones.
import type { Hunk, HunkSecret } from '../../../shared/review';
import { findSecretSpans, secretLabel } from '../lint';
import type { ChangeBlock } from './lines';

/** 0-based line index -> what the secret on it is, in words. */
export type LineSecrets = Map<number, string>;

export interface SecretLines {
  old: LineSecrets;
  new: LineSecrets;
}

/**
 * Lines scanned around each change: the hunk's three context lines and two more before them, since a bare key's rule
 * reads the line before it ("aws secret:" then the key), and a few after for the context lines the hunk shows.
 */
const PAD_BEFORE = 5;
const PAD_AFTER = 3;

type Range = [number, number];

function merged(ranges: Range[], length: number): Range[] {
  const sorted = ranges.map(([a, b]): Range => [Math.max(0, a - PAD_BEFORE), Math.min(length, b + PAD_AFTER)]).sort((x, y) => x[0] - y[0]);
  const out: Range[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else out.push(r);
  }
  return out;
}

/** A scanned text is cut into pieces of about this size, each ending before a Markdown heading. */
const CHUNK_CHARS = 32 * 1024;
/** Past this, a piece is cut at the next line whatever it is (a file without headings). */
const MAX_CHUNK_CHARS = 256 * 1024;

/**
 * `[from, to)` cut where a new Markdown section starts (a blank line, then `#`): the scanner runs its keyword rules on
 * windows of a text, but on a whole text once a keyword occurs hundreds of times, which made one 5 MB range take
 * seconds. A secret never spans a heading (a private key's block has none), so nothing is lost at the cuts.
 */
function chunks(lines: readonly string[], from: number, to: number): Range[] {
  const out: Range[] = [];
  let start = from;
  let size = 0;
  for (let i = from; i < to; i++) {
    const line = lines[i] as string;
    const cut = (size >= CHUNK_CHARS && line.startsWith('#') && (lines[i - 1] as string).trim() === '') || size >= MAX_CHUNK_CHARS;
    if (cut && i > start) {
      out.push([start, i]);
      [start, size] = [i, 0];
    }
    size += line.length;
  }
  if (start < to) out.push([start, to]);
  return out;
}

/** The secret lines of `lines` (each keeping its ending) inside `ranges`, each range scanned in pieces. */
function scanRanges(lines: readonly string[], ranges: Range[]): LineSecrets {
  const out: LineSecrets = new Map();
  for (const [from, to] of merged(ranges, lines.length).flatMap(([a, b]) => chunks(lines, a, b))) {
    const starts: number[] = [];
    let text = '';
    for (let i = from; i < to; i++) {
      starts.push(text.length);
      text += lines[i] as string;
    }
    for (const span of findSecretSpans(text)) {
      const label = secretLabel(span.rule);
      for (let k = lineAt(starts, span.secretStart); k < starts.length && (starts[k] as number) < span.secretEnd; k++) {
        if (!out.has(from + k)) out.set(from + k, label);
      }
    }
  }
  return out;
}

/** The index of the line holding `offset`, by binary search over the line starts. */
function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Secret lines on both sides around `changes` (0-based line arrays `a` old, `b` new), scanned: for real texts only.
 * Stored texts are masked (`abcd****` is no secret to the engine), so their callers give the lines that at-rest
 * recorded when it masked them (`proposal_files.masked_lines`, `history_files.masked_lines`) instead.
 */
export function secretLinesAround(a: readonly string[], b: readonly string[], changes: readonly ChangeBlock[]): SecretLines {
  if (changes.length === 0) return { old: new Map(), new: new Map() };
  return {
    old: scanRanges(
      a,
      changes.map((c): Range => [c.oldIdx, c.oldIdx + c.oldLen]),
    ),
    new: scanRanges(
      b,
      changes.map((c): Range => [c.newIdx, c.newIdx + c.newLen]),
    ),
  };
}

/** A change split so it can be decided apart from its neighbours; `alone` pieces never share a hunk. */
export type Isolated<T extends ChangeBlock> = T & { alone?: boolean };

/** The new side of a change as runs of lines, each a secret run or not, in order. */
function runsOf(c: ChangeBlock, secretNew: LineSecrets): Array<{ from: number; to: number; secret: boolean }> {
  const runs: Array<{ from: number; to: number; secret: boolean }> = [];
  for (let i = c.newIdx; i < c.newIdx + c.newLen; i++) {
    const secret = secretNew.has(i);
    const last = runs[runs.length - 1];
    if (last && last.secret === secret) last.to = i + 1;
    else runs.push({ from: i, to: i + 1, secret });
  }
  return runs;
}

/**
 * `changes` with every run of added lines that hold a secret cut out as its own change (`alone`), so it becomes its own
 * hunk: accepting the rest of a block never writes it, and rejecting it keeps the rest. The removed lines ride with the
 * first piece that is not a secret (or go alone, first, when every added line is one), so the pieces, in order, still
 * turn the old lines into the new ones.
 */
export function isolateSecretLines<T extends ChangeBlock>(changes: readonly T[], secretNew: LineSecrets): Isolated<T>[] {
  if (secretNew.size === 0) return [...changes];
  const out: Isolated<T>[] = [];
  for (const c of changes) {
    const runs = runsOf(c, secretNew);
    if (!runs.some((r) => r.secret)) {
      out.push(c);
      continue;
    }
    let oldAt = c.oldIdx;
    const carrier = runs.findIndex((r) => !r.secret);
    if (carrier === -1 && c.oldLen > 0) {
      out.push({ ...c, newLen: 0 });
      oldAt += c.oldLen;
    }
    runs.forEach((r, k) => {
      const oldLen = k === carrier ? c.oldLen : 0;
      out.push({ ...c, oldIdx: oldAt, oldLen, newIdx: r.from, newLen: r.to - r.from, alone: r.secret });
      oldAt += oldLen;
    });
  }
  return out;
}

/** `hunk` with its lines that hold a secret listed (`secrets`), by each line's number on its side. */
function markHunk(hunk: Hunk, secrets: SecretLines): Hunk {
  let o = hunk.oldLines === 0 ? hunk.oldStart : hunk.oldStart - 1;
  let n = hunk.newLines === 0 ? hunk.newStart : hunk.newStart - 1;
  const found: HunkSecret[] = [];
  hunk.lines.forEach((line, index) => {
    const sign = line[0];
    if (sign === '\\') return;
    const label = sign === '-' ? secrets.old.get(o) : sign === '+' ? secrets.new.get(n) : (secrets.new.get(n) ?? secrets.old.get(o));
    if (label !== undefined) found.push({ index, label });
    if (sign !== '+') o++;
    if (sign !== '-') n++;
  });
  return found.length === 0 ? hunk : { ...hunk, secrets: found };
}

/** Every hunk with its secret lines marked. */
export function markSecrets(hunks: readonly Hunk[], secrets: SecretLines): Hunk[] {
  if (secrets.old.size === 0 && secrets.new.size === 0) return [...hunks];
  return hunks.map((h) => markHunk(h, secrets));
}

/** The lines of `lines` equal to one of `masked` (a masked line's text -> what it held): a rebase's merged lines. */
export function secretLinesByText(lines: readonly string[], masked: ReadonlyMap<string, string>): LineSecrets {
  const out: LineSecrets = new Map();
  if (masked.size === 0) return out;
  lines.forEach((line, i) => {
    const kind = masked.get(line);
    if (kind !== undefined) out.set(i, kind);
  });
  return out;
}

/** Hunks made elsewhere (a rebase's merge) marked with `given` lines, or by scanning around their own ranges. */
export function markHunksOf(a: readonly string[], b: readonly string[], hunks: readonly Hunk[], given?: SecretLines): Hunk[] {
  if (given) return markSecrets(hunks, given);
  const ranges = hunks.map((h): ChangeBlock => ({
    oldIdx: h.oldLines === 0 ? h.oldStart : h.oldStart - 1,
    oldLen: h.oldLines,
    newIdx: h.newLines === 0 ? h.newStart : h.newStart - 1,
    newLen: h.newLines,
  }));
  return markSecrets(hunks, secretLinesAround(a, b, ranges));
}
