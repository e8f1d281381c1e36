// Hunks between a base and a proposed text, and the exact text that results from accepting some of them.
import { createHash } from 'node:crypto';
import type { DecisionMap, EditMap, Hunk, HunkKind } from '../../../shared/review';
import { StudioFailure } from '../platform/errors';
import { itemAt } from '../platform/indexed';
import { type ChangeBlock, diffLineArrays, groupBlocks, hunkBounds, splitLines } from './lines';

/** Lines of unchanged text shown around each change, as in `git diff`; blocks closer than twice this share a hunk. */
export const CONTEXT_LINES = 3;

const NO_EOL_MARKER = '\\ No newline at end of file';

/** The text of a line without its terminator, and whether it had one (the last line of a file may not). */
export function displayLine(prefix: string, line: string, out: string[]): void {
  if (line.endsWith('\r\n')) out.push(prefix + line.slice(0, -2));
  else if (line.endsWith('\n')) out.push(prefix + line.slice(0, -1));
  else out.push(prefix + line, NO_EOL_MARKER);
}

/**
 * A hunk's id hashes its old range and its exact lines (endings included) but not its new range, so the same
 * change keeps its id when other hunks are rejected: the review tests rely on that (accepted ids reappear).
 */
export function hunkId(kind: HunkKind, oldStart: number, oldLines: number, raw: string[]): string {
  const hash = createHash('sha256');
  hash.update(`${kind}\0${oldStart}\0${oldLines}\0`);
  for (const line of raw) hash.update(line + '\0');
  return 'h' + hash.digest('hex').slice(0, 12);
}

/** Unified numbering: 1-based start, or the line after which the (empty) range sits. */
export const unifiedStart = (index: number, count: number) => (count === 0 ? index : index + 1);
const toIndex = (start: number, count: number) => (count === 0 ? start : start - 1);

export interface Bounds {
  oldFrom: number;
  oldTo: number;
  newFrom: number;
  newTo: number;
}

/** The lines of a hunk over `bounds`: context, then each block's removed and added lines; `raw` keeps the endings for the id. */
export function hunkLines(a: readonly string[], b: readonly string[], group: readonly ChangeBlock[], bounds: Bounds) {
  const lines: string[] = [];
  const raw: string[] = [];
  const emit = (sign: ' ' | '-' | '+', line: string) => {
    displayLine(sign, line, lines);
    raw.push(sign + line);
  };
  let added = 0;
  let removed = 0;
  let oi = bounds.oldFrom;
  for (const block of group) {
    for (; oi < block.oldIdx; oi++) emit(' ', itemAt(a, oi));
    for (let k = 0; k < block.oldLen; k++, oi++) emit('-', itemAt(a, oi));
    for (let k = 0; k < block.newLen; k++) emit('+', itemAt(b, block.newIdx + k));
    removed += block.oldLen;
    added += block.newLen;
  }
  for (; oi < bounds.oldTo; oi++) emit(' ', itemAt(a, oi));
  return { lines, raw, added, removed };
}

export function buildHunk(
  a: readonly string[],
  b: readonly string[],
  group: ChangeBlock[],
  bounds: Bounds = hunkBounds(a.length, group, CONTEXT_LINES),
): Hunk {
  const { lines, raw, added, removed } = hunkLines(a, b, group, bounds);
  const oldLines = bounds.oldTo - bounds.oldFrom;
  const newLines = bounds.newTo - bounds.newFrom;
  const oldStart = unifiedStart(bounds.oldFrom, oldLines);
  return {
    id: hunkId('text', oldStart, oldLines, raw),
    kind: 'text',
    oldStart,
    oldLines,
    newStart: unifiedStart(bounds.newFrom, newLines),
    newLines,
    lines,
    added,
    removed,
  };
}

/** The hunks turning `base` into `proposed` (both present), with 3 lines of context; empty when they are equal. */
export function computeHunks(base: string, proposed: string): Hunk[] {
  if (base === proposed) return [];
  const a = splitLines(base);
  const b = splitLines(proposed);
  return groupBlocks(CONTEXT_LINES, diffLineArrays(a, b)).map((group) => buildHunk(a, b, group));
}

/** One hunk for a whole-file creation or deletion: such a change is decided as a whole. */
function wholeFileHunk(kind: 'create' | 'delete', content: string): Hunk {
  const all = splitLines(content);
  const lines: string[] = [];
  const sign = kind === 'create' ? '+' : '-';
  for (const line of all) displayLine(sign, line, lines);
  const count = all.length;
  const raw = [kind, content];
  if (kind === 'create')
    return {
      id: hunkId(kind, 0, 0, raw),
      kind,
      oldStart: 0,
      oldLines: 0,
      newStart: unifiedStart(0, count),
      newLines: count,
      lines,
      added: count,
      removed: 0,
    };
  return {
    id: hunkId(kind, unifiedStart(0, count), count, raw),
    kind,
    oldStart: unifiedStart(0, count),
    oldLines: count,
    newStart: 0,
    newLines: 0,
    lines,
    added: 0,
    removed: count,
  };
}

/** Hunks for a file change where either side may be absent (`null`: the file does not exist / is deleted). */
export function computeFileHunks(base: string | null, proposed: string | null): Hunk[] {
  if (base === null && proposed === null) return [];
  if (base === null) return [wholeFileHunk('create', proposed as string)];
  if (proposed === null) return [wholeFileHunk('delete', base)];
  return computeHunks(base, proposed);
}

const mismatch = () =>
  new StudioFailure(
    'Invalid',
    'The hunks do not belong to this pair of texts (the file or the proposal changed since they were computed).',
    {
      hint: 'Recompute the hunks (rebase the proposal) and decide again.',
    },
  );

/** A hand-written resolution that does not end its last line gets the file's line ending when more lines follow. */
function editLines(text: string, linesFollow: boolean, eolOf: string | undefined): string[] {
  const crlf = eolOf?.endsWith('\r\n') ?? false;
  // Typed in a text box, the lines end in "\n": in a CRLF file they take its endings.
  const typed = crlf && !text.includes('\r\n') ? text.replace(/\n/g, '\r\n') : text;
  if (typed === '' || !linesFollow || typed.endsWith('\n')) return splitLines(typed);
  return splitLines(typed + (crlf ? '\r\n' : '\n'));
}

interface Sides {
  a: readonly string[];
  b: readonly string[];
  /** The lines base-side lines are taken from: `a` itself, or the live file's lines (see `LiveSource`). */
  src: readonly string[];
  oldIdx: number;
  newIdx: number;
  guard?: (line: string) => void;
}

/** A conflict hunk's lines as resolved: context kept, the conflicting lines by the resolution (undecided keeps the disk's). */
function resolvedConflict(hunk: Hunk, sides: Sides, decision: string | undefined, edit: string | undefined, out: string[]): void {
  const { a, b, src, oldIdx, newIdx, guard } = sides;
  const c = hunk.conflict;
  if (!c) throw mismatch();
  const theirsFrom = toIndex(c.theirs.start, c.theirs.lines);
  const theirsTo = theirsFrom + c.theirs.lines;
  const oursFrom = toIndex(c.ours.start, c.ours.lines);
  const oldTo = oldIdx + hunk.oldLines;
  if (theirsFrom < oldIdx || theirsTo > oldTo || oursFrom < newIdx || oursFrom + c.ours.lines > newIdx + hunk.newLines) throw mismatch();
  const before = src.slice(oldIdx, theirsFrom);
  const after = src.slice(theirsTo, oldTo);
  const theirs = src.slice(theirsFrom, theirsTo);
  const ours = b.slice(oursFrom, oursFrom + c.ours.lines);
  let middle = theirs;
  if (decision === 'ours') middle = ours;
  else if (decision === 'both') middle = [...theirs, ...ours];
  else if (decision === 'edit' && edit !== undefined) middle = editLines(edit, theirsTo < a.length, theirs.at(-1) ?? ours.at(-1));
  if (guard && middle !== theirs) for (const line of middle.slice(decision === 'both' ? theirs.length : 0)) guard(line);
  // A loop, not push(...): a conflict can span tens of thousands of lines.
  for (const part of [before, middle, after]) for (const line of part) out.push(line);
}

/**
 * An accepted change hunk over a live file: its context lines come from the live file and only its added lines
 * from the proposal (the stored proposal's context lines are masked copies of the live ones).
 */
function acceptedOverLive(hunk: Hunk, sides: Sides, out: string[]): void {
  const { b, src, guard } = sides;
  let oi = sides.oldIdx;
  let ni = sides.newIdx;
  for (const line of hunk.lines) {
    if (line.startsWith(' ')) {
      const kept = src[oi++];
      if (kept === undefined) throw mismatch();
      out.push(kept);
      ni++;
    } else if (line.startsWith('-')) oi++;
    else if (line.startsWith('+')) {
      const added = b[ni++];
      if (added === undefined) throw mismatch();
      guard?.(added);
      out.push(added);
    }
  }
  if (oi !== sides.oldIdx + hunk.oldLines || ni !== sides.newIdx + hunk.newLines) throw mismatch();
}

/**
 * Where the lines a decision keeps from the base are read: the live file whose bytes hash to the proposal's base.
 * The data folder keeps its texts masked (`lint/mask-at-rest.ts`); the live file has the same lines, each secret
 * whole, so what Apply writes is what was reviewed with every unchanged line as it is on disk. `guard` sees each line
 * taken from the proposal's side and refuses one that would write a masked secret.
 */
export interface LiveSource {
  live: string;
  guard?: (line: string) => void;
}

/**
 * The exact text after the decisions: accepted hunks take the proposed lines, rejected or undecided hunks keep
 * the base lines, conflict hunks take their resolution (an unresolved one keeps the base lines, and Apply refuses it),
 * and everything between hunks is the base (equal to the proposed there by construction).
 */
export function applyDecisions(
  base: string,
  proposed: string,
  hunks: readonly Hunk[],
  decisions: DecisionMap,
  edits: EditMap = {},
  over?: LiveSource,
): string {
  const a = splitLines(base);
  const b = splitLines(proposed);
  const src = over ? splitLines(over.live) : a;
  if (src.length !== a.length) throw mismatch();
  // Old index first, then new: two hunks of neighbouring blocks can meet at one line (a removal, then an insertion).
  const sorted = [...hunks].sort(
    (x, y) =>
      toIndex(x.oldStart, x.oldLines) - toIndex(y.oldStart, y.oldLines) ||
      toIndex(x.newStart, x.newLines) - toIndex(y.newStart, y.newLines),
  );
  const out: string[] = [];
  let oldCursor = 0;
  let newCursor = 0;
  for (const hunk of sorted) {
    if (hunk.kind !== 'text' && (hunk.kind !== 'conflict' || hunk.conflict?.absent)) throw mismatch();
    const oldIdx = toIndex(hunk.oldStart, hunk.oldLines);
    const newIdx = toIndex(hunk.newStart, hunk.newLines);
    // The unchanged stretch before a hunk must be equally long on both sides, or these hunks are from another pair.
    if (oldIdx < oldCursor || oldIdx - oldCursor !== newIdx - newCursor) throw mismatch();
    for (const line of src.slice(oldCursor, oldIdx)) out.push(line);
    const decision = decisions[hunk.id];
    const sides: Sides = { a, b, src, oldIdx, newIdx, guard: over?.guard };
    if (hunk.kind === 'conflict') resolvedConflict(hunk, sides, decision, edits[hunk.id], out);
    else if (decision === 'accept' && over) acceptedOverLive(hunk, sides, out);
    else if (decision === 'accept') for (const line of b.slice(newIdx, newIdx + hunk.newLines)) out.push(line);
    else for (const line of src.slice(oldIdx, oldIdx + hunk.oldLines)) out.push(line);
    oldCursor = oldIdx + hunk.oldLines;
    newCursor = newIdx + hunk.newLines;
  }
  if (oldCursor > a.length || a.length - oldCursor !== b.length - newCursor) throw mismatch();
  for (const line of src.slice(oldCursor)) out.push(line);
  return out.join('');
}

export type FileOutcome = { action: 'write'; content: string } | { action: 'delete' } | { action: 'unchanged' };

/** A whole-file conflict (one side has no file): unresolved or `theirs` leaves the disk as it is. */
function resolveWholeConflict(
  hunk: Hunk,
  base: string | null,
  proposed: string | null,
  decision: string | undefined,
  edit: string | undefined,
): FileOutcome {
  const absent = hunk.conflict?.absent;
  if (absent === 'theirs' && base === null && proposed !== null) {
    if (decision === 'ours') return { action: 'write', content: proposed };
  } else if (absent === 'ours' && base !== null && proposed === null) {
    if (decision === 'ours') return { action: 'delete' };
  } else throw mismatch();
  if (decision === 'edit' && edit !== undefined) return { action: 'write', content: edit };
  return { action: 'unchanged' };
}

/**
 * What the decisions make of one file: write this content, delete it, or leave it as it is. With `over` (Apply), the
 * base's lines are the live file's and every line written from the proposal's side passes its guard.
 */
export function resolveFile(
  base: string | null,
  proposed: string | null,
  hunks: readonly Hunk[],
  decisions: DecisionMap,
  edits: EditMap = {},
  over?: LiveSource,
): FileOutcome {
  const outcome = resolveStored(base, proposed, hunks, decisions, edits, over);
  // A created file, or a whole-file conflict's own text, comes from the proposal's side alone.
  if (over?.guard && outcome.action === 'write' && (base === null || proposed === null))
    for (const line of splitLines(outcome.content)) over.guard(line);
  return outcome;
}

function resolveStored(
  base: string | null,
  proposed: string | null,
  hunks: readonly Hunk[],
  decisions: DecisionMap,
  edits: EditMap,
  over: LiveSource | undefined,
): FileOutcome {
  const only = hunks.length === 1 ? hunks[0] : undefined;
  const whole = only && only.kind !== 'text' && !(only.kind === 'conflict' && !only.conflict?.absent) ? only : null;
  if (whole?.kind === 'conflict') return resolveWholeConflict(whole, base, proposed, decisions[whole.id], edits[whole.id]);
  if (base === null || proposed === null) {
    if (!whole && hunks.length > 0) throw mismatch();
    if (!whole || decisions[whole.id] !== 'accept') return { action: 'unchanged' };
    if (whole.kind === 'delete' && base !== null && proposed === null) return { action: 'delete' };
    if (whole.kind === 'create' && base === null && proposed !== null) return { action: 'write', content: proposed };
    throw mismatch();
  }
  const content = applyDecisions(base, proposed, hunks, decisions, edits, over);
  return content === (over ? over.live : base) ? { action: 'unchanged' } : { action: 'write', content };
}

/** Conflict hunks with no resolution yet: Apply refuses while there is one. */
export function unresolvedConflicts(hunks: readonly Hunk[], decisions: DecisionMap): string[] {
  const resolutions = new Set(['theirs', 'ours', 'both', 'edit']);
  return hunks.filter((h) => h.kind === 'conflict' && !resolutions.has(decisions[h.id] ?? '')).map((h) => h.id);
}

/** Hunks whose proposed side the decisions write, and the lines they add and remove (for the Apply summary). */
export function decidedChanges(
  hunks: readonly Hunk[],
  decisions: DecisionMap,
  edits: EditMap,
): { ids: string[]; added: number; removed: number } {
  const ids: string[] = [];
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    const decision = decisions[hunk.id];
    const c = hunk.conflict;
    if (decision === 'accept' && hunk.kind !== 'conflict') [added, removed] = [added + hunk.added, removed + hunk.removed];
    else if (!c || (decision !== 'ours' && decision !== 'both' && decision !== 'edit')) continue;
    else if (decision === 'ours') [added, removed] = [added + c.ours.lines, removed + c.theirs.lines];
    else if (decision === 'both') added += c.ours.lines;
    else [added, removed] = [added + splitLines(edits[hunk.id] ?? '').length, removed + c.theirs.lines];
    ids.push(hunk.id);
  }
  return { ids, added, removed };
}
