// Which lines of a review's hunks hold a secret, so the review marks each one and never lets an added one ride inside a
// larger change decided all at once: found by the one secret engine in real texts, or given for stored (masked) ones.
import type { Hunk, HunkSecret } from '../../../shared/review';
import { REDACTED_SECRET } from '../codex/constants';
import { findSecretSpans, secretLabel } from '../lint/secrets';
import { itemAt } from '../platform/indexed';
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
    const line = itemAt(lines, i);
    const cut = (size >= CHUNK_CHARS && line.startsWith('#') && itemAt(lines, i - 1).trim() === '') || size >= MAX_CHUNK_CHARS;
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
    for (const line of lines.slice(from, to)) {
      starts.push(text.length);
      text += line;
    }
    for (const span of findSecretSpans(text)) {
      const label = secretLabel(span.rule);
      for (let k = lineAt(starts, span.secretStart); k < starts.length && itemAt(starts, k) < span.secretEnd; k++) {
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
    if (itemAt(starts, mid) <= offset) lo = mid;
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

/** The maximal runs `[from, to)` of lines in `[from, to)` that `secret` holds. */
function secretRuns(secret: LineSecrets, from: number, to: number): Range[] {
  const runs: Range[] = [];
  for (let i = from; i < to; i++) {
    if (!secret.has(i)) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === i) last[1] = i + 1;
    else runs.push([i, i + 1]);
  }
  return runs;
}

/** A private key's armor: the secret the scanner marks is the key's body, its redaction takes these lines too. */
const KEY_BEGIN = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;
const KEY_END = /-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----/;

/**
 * A change that redacts secrets cut so each redaction is a change of its own (`alone`): a run of removed secret lines
 * (with a private key's BEGIN and END lines around it) and the one added line that writes `[REDACTED_SECRET]` in their
 * place (a consolidation proposes it where the engine kept the placeholder staging gave it,
 * `consolidate/hidden-secrets.ts`). Deciding the redaction then never decides an edit beside it. Paired in order, only
 * when the runs and the placeholder lines are as many; else the change is kept whole.
 */
function isolateRedactions<T extends ChangeBlock>(c: T, secrets: SecretLines, a: readonly string[], b: readonly string[]): Isolated<T>[] {
  const [oldEnd, newEnd] = [c.oldIdx + c.oldLen, c.newIdx + c.newLen];
  const runs = secretRuns(secrets.old, c.oldIdx, oldEnd);
  if (runs.length === 0) return [c];
  for (const run of runs) {
    if (run[0] > c.oldIdx && !secrets.old.has(run[0] - 1) && KEY_BEGIN.test(a[run[0] - 1] ?? '')) run[0]--;
    if (run[1] < oldEnd && !secrets.old.has(run[1]) && KEY_END.test(a[run[1]] ?? '')) run[1]++;
  }
  const placeholders: number[] = [];
  for (let j = c.newIdx; j < newEnd; j++) if (!secrets.new.has(j) && (b[j] ?? '').includes(REDACTED_SECRET)) placeholders.push(j);
  // As many as the runs, and no two runs sharing a line (one key's armor taken twice).
  if (placeholders.length !== runs.length || runs.some((r, k) => k > 0 && r[0] < itemAt(runs, k - 1)[1])) return [c];
  const out: Isolated<T>[] = [];
  let [oldAt, newAt] = [c.oldIdx, c.newIdx];
  const piece = (oldTo: number, newTo: number, alone: boolean) => {
    if (oldTo > oldAt || newTo > newAt)
      out.push({ ...c, oldIdx: oldAt, oldLen: oldTo - oldAt, newIdx: newAt, newLen: newTo - newAt, alone });
    [oldAt, newAt] = [oldTo, newTo];
  };
  runs.forEach(([from, to], k) => {
    const j = itemAt(placeholders, k);
    piece(from, j, false);
    piece(to, j + 1, true);
  });
  piece(oldEnd, newEnd, false);
  return out;
}

/**
 * `changes` with every run of added lines that hold a secret cut out as its own change (`alone`), so it becomes its own
 * hunk: accepting the rest of a block never writes it, and rejecting it keeps the rest. The removed lines ride with the
 * first piece that is not a secret (or go alone, first, when every added line is one), so the pieces, in order, still
 * turn the old lines into the new ones. Given both sides' `lines`, a redaction (removed secret lines, the line that
 * writes `[REDACTED_SECRET]` in their place) is cut out as its own change too (`isolateRedactions`).
 */
export function isolateSecretLines<T extends ChangeBlock>(
  changes: readonly T[],
  secrets: SecretLines,
  lines?: { a: readonly string[]; b: readonly string[] },
): Isolated<T>[] {
  const split = lines && secrets.old.size > 0 ? changes.flatMap((c) => isolateRedactions(c, secrets, lines.a, lines.b)) : changes;
  const secretNew = secrets.new;
  if (secretNew.size === 0) return [...split];
  const out: Isolated<T>[] = [];
  for (const c of split as Isolated<T>[]) {
    if (c.alone) {
      out.push(c);
      continue;
    }
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
