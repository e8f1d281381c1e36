// Folds the consolidation into an existing memory_summary.md: entries no input affects stay byte for byte and in place.
import { itemAt } from '../../../platform/indexed';
import { appendAll } from '../../../platform/append';
import type { MemoryVersion } from '../../../../../shared/domain';
import { DEFAULT_PROFILE_PREFIX } from './existing';
import type { Entry } from './model';
import { clipWords, type WorkspaceLabel } from './parse';
import { LEVELS, type Level } from './summary';
import {
  entryItem,
  isBlank,
  ownLine,
  parseSummaryDoc,
  removeEntries,
  sectionRange,
  WIM,
  wimPlaces,
  type Item,
  type SummaryDoc,
} from './summary-doc';
import { addBullets, addExtras, type Extra } from './summary-sections';
import { DAY_MS, olderGroup, placeEntry, recentGroup, refsOf, type PlaceCtx } from './summary-place';
import { groupLines, placedGroups, type PlacedGroup, type ScopeView } from './summary-scopes';
import { fitBudget } from './summary-trim';

export type { Extra };

export interface SummaryMergeSource {
  existing: string;
  version: MemoryVersion;
  /** Every rollout's entry, newest first, and the scopes they form. */
  entries: readonly Entry[];
  scopes: readonly ScopeView[];
  /** `phase2_workspace_diff.md`'s A/M/D by path; null when staging has none. */
  changes: ReadonlyMap<string, WorkspaceLabel> | null;
  /** Whether a file an entry names is still in staging. */
  present: (ref: string) => boolean;
  /** The profile the engine writes when there is none (replaces an older default, never a written profile). */
  defaultProfile: string;
  /** The rebuild's ranked preference and tip candidates. */
  preferences: readonly string[];
  tips: readonly string[];
  notes: ReadonlyArray<{ path: string; file: string; fact: string }>;
  extras: readonly Extra[];
  profileMaxWords: number;
}

export interface SummaryMergeResult {
  text: string;
  /** Entries of "What's in Memory" left as they were, added, removed (inputs gone or changed), dropped for the budget. */
  kept: number;
  added: number;
  removed: number;
  trimmed: number;
  profileClipped: boolean;
}

/** The level whose entry format new entries use: the most detailed one (the budget is met by dropping, not rewording). */
const DETAIL: Level = LEVELS[0];
const REQUIRED = ['User Profile', 'User preferences', 'General Tips', WIM];

/** Whether the summary can be merged into: Codex's `v1` line, the four sections, and an index with entries. */
function mergeable(doc: SummaryDoc): boolean {
  const first = doc.items[0]?.lines[0]?.replace(/\r$/, '');
  if (first !== 'v1' || !REQUIRED.every((t) => sectionRange(doc, t) !== null)) return false;
  return wimPlaces(doc).some((p) => p.item.kind === 'entry');
}

/**
 * Whether the workspace diff says what is new: only when Codex's baseline held a summary (a summary that is itself
 * "added" was not made from that baseline's inputs, so "added" says nothing about what it already covers).
 */
function diffMode(changes: SummaryMergeSource['changes']): changes is ReadonlyMap<string, WorkspaceLabel> {
  return changes !== null && changes.get('memory_summary.md') !== 'A';
}

/**
 * Without a usable diff: how far each scope of the summary reaches (its newest rollout, or the end of the newest day it
 * names). A rollout after that is new; one before it was left out on purpose (budget, or an older topic).
 */
function highWater(ctx: PlaceCtx): Map<string, number> {
  const marks = new Map<string, number>();
  for (const p of wimPlaces(ctx.doc)) {
    if (p.scope === null) continue;
    const scope = itemAt(ctx.doc.items, p.scope).title;
    const refs = refsOf(p.item.lines);
    let t = marks.get(scope) ?? -Infinity;
    for (const f of refs.rollouts) t = Math.max(t, ctx.byFile.get(f)?.rollout.updatedMs ?? -Infinity);
    for (const d of refs.dates) t = Math.max(t, d + DAY_MS - 1);
    marks.set(scope, t);
  }
  return marks;
}

interface Changes {
  /** Entries to remove: an input they name is gone, or was rewritten and gets a new entry. */
  drop: Set<Item>;
  /** Rollout files that get a new entry. */
  fresh: Set<string>;
  /** Newest time the summary covers, for notes (no-diff mode only). */
  covered: number;
}

/** What the inputs change: entries whose inputs went away or were rewritten, and the rollouts that are new. */
function findChanges(src: SummaryMergeSource, ctx: PlaceCtx, placed: readonly PlacedGroup[]): Changes {
  const diff = diffMode(src.changes) ? src.changes : null;
  const shown = new Set(placed.flatMap((p) => p.group.map((e) => e.rollout.file)));
  const drop = new Set<Item>();
  const orphaned = new Set<string>();
  const referenced = new Set<string>();
  for (const p of wimPlaces(ctx.doc)) {
    const item = p.item;
    if (item.kind !== 'entry') continue;
    const refs = refsOf(item.lines);
    const paths = [...refs.rollouts.map((f) => `rollout_summaries/${f}`), ...refs.exts];
    const gone = paths.some((r) => !src.present(r));
    // A rewritten rollout's entry is redone only where the index shows that rollout; elsewhere it stays as written.
    const rewritten = diff !== null && refs.rollouts.some((f) => diff.get(`rollout_summaries/${f}`) === 'M' && shown.has(f));
    if (gone || rewritten) {
      drop.add(item);
      for (const f of refs.rollouts) if (src.present(`rollout_summaries/${f}`)) orphaned.add(f);
    } else for (const f of refs.rollouts) referenced.add(f);
  }
  const marks = diff ? null : highWater(ctx);
  const covered = marks ? Math.max(-Infinity, ...marks.values()) : Infinity;
  const fresh = new Set<string>();
  for (const e of src.entries) {
    const f = e.rollout.file;
    if (referenced.has(f)) continue;
    const label = diff?.get(`rollout_summaries/${f}`);
    const isNew = diff ? label === 'A' || label === 'M' : e.rollout.updatedMs > (marks?.get(e.scope) ?? covered);
    if (isNew || orphaned.has(f)) fresh.add(f);
  }
  return { drop, fresh, covered };
}

/** New rollouts join the scope and day (or older scope) the rebuild would show them under, as their own entry. */
function addEntries(
  ctx: PlaceCtx,
  placed: readonly PlacedGroup[],
  fresh: ReadonlySet<string>,
  v1: boolean,
): { entries: number; rollouts: Entry[] } {
  const added: Entry[] = [];
  let entries = 0;
  for (const p of placed) {
    const group = p.group.filter((e) => fresh.has(e.rollout.file));
    const newest = group[0];
    if (!newest) continue;
    const time = newest.rollout.updatedMs;
    const at = p.part === 'recent' ? recentGroup(ctx, p.scope, p.day as string, time) : olderGroup(ctx, p.scope, time);
    placeEntry(ctx, at, entryItem(groupLines({ part: p.part, group }, DETAIL, v1)), time);
    appendAll(added, group);
    entries++;
  }
  return { entries, rollouts: added };
}

/** The profile replaced only when it is the engine's own default (it names the projects) or over the template's limit. */
function fixProfile(ctx: PlaceCtx, src: SummaryMergeSource): boolean {
  const [start, end] = sectionRange(ctx.doc, 'User Profile') as [number, number];
  const heading = itemAt(ctx.doc.items, start);
  const body = ctx.doc.items.slice(start, end).flatMap((i, k) => (k === 0 ? i.lines.slice(1) : i.lines));
  const text = body
    .map((l) => l.replace(/\r$/, ''))
    .join('\n')
    .trim();
  const isDefault = text.startsWith(DEFAULT_PROFILE_PREFIX);
  const clipped = isDefault ? src.defaultProfile : clipWords(text, src.profileMaxWords);
  if (clipped === text) return false;
  const last = itemAt(ctx.doc.items, end - 1);
  const trail = last.lines.slice(last.lines.length - trailingBlanks(last.lines));
  const gap = gapAfterHeading(heading);
  ctx.doc.items.splice(start + 1, end - start - 1);
  heading.lines = [ownLine(heading), ...gap, ...clipped.split('\n'), ...trail];
  return !isDefault;
}

function trailingBlanks(lines: readonly string[]): number {
  let n = 0;
  while (n < lines.length - 1 && isBlank(itemAt(lines, lines.length - 1 - n))) n++;
  return n;
}

/** `['']` when a blank line follows the heading's own line, else `[]`: the gap new headings copy. */
function gapAfterHeading(heading: Item): string[] {
  const second = heading.lines[1];
  return second !== undefined && isBlank(second) ? [''] : [];
}

/** Lines the merge wrote carry no `\r`; in a CRLF file they get one, so its line endings stay as they were. */
function keepLineEndings(doc: SummaryDoc, before: ReadonlyMap<Item, string>): void {
  if (!doc.cr) return;
  for (const item of doc.items)
    if (before.get(item) !== item.lines.join('\n')) item.lines = item.lines.map((l) => (l.endsWith('\r') ? l : `${l}\r`));
}

/**
 * memory_summary.md merged with the inputs (see `findChanges` for what counts as changed); `init` when there is
 * nothing to merge into (not Codex's `v1` schema, a section missing, an index with no entry: the template then
 * regenerates the file), `over-budget` when even an index with no entry left does not fit.
 */
export function mergeSummary(src: SummaryMergeSource): SummaryMergeResult | 'init' | 'over-budget' {
  const doc = parseSummaryDoc(src.existing);
  if (!mergeable(doc)) return 'init';
  const wimRange = sectionRange(doc, WIM);
  if (wimRange === null) return 'init'; // unreachable: mergeable() found the section
  const ctx: PlaceCtx = {
    doc,
    gap: gapAfterHeading(itemAt(doc.items, wimRange[0])),
    byFile: new Map(src.entries.map((e) => [e.rollout.file, e])),
  };
  const before = new Map(doc.items.map((i) => [i, i.lines.join('\n')]));
  const originalEntries = new Set(
    wimPlaces(doc)
      .map((p) => p.item)
      .filter((i) => i.kind === 'entry'),
  );
  const placed = placedGroups(src.scopes, DETAIL);
  const changes = findChanges(src, ctx, placed);
  removeEntries(doc, changes.drop);
  const added = addEntries(ctx, placed, changes.fresh, src.version === 'v1');
  addBullets(ctx, src, added.rollouts, diffMode(src.changes) ? src.changes : null, changes.covered);
  addExtras(ctx, src.extras, diffMode(src.changes) ? src.changes : null);
  const profileClipped = fixProfile(ctx, src);
  keepLineEndings(doc, before);
  const fitted = fitBudget(ctx, src.version);
  if (!fitted) return 'over-budget';
  const kept = doc.items.filter((i) => originalEntries.has(i)).length;
  return { text: fitted.text, kept, added: added.entries, removed: changes.drop.size, trimmed: fitted.trimmed, profileClipped };
}
