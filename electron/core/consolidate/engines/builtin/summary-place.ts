// Where new content goes in an existing memory_summary.md: the scope, day group or section Codex's template puts it in.
import { group, itemAt } from '../../../platform/indexed';
import type { Entry } from './model';
import { childrenEnd, headingItem, insertAfter, insertBefore, OLDER, sectionRange, WIM, type Item, type SummaryDoc } from './summary-doc';

const ROLLOUT_REF = /rollout_summaries\/([^\s()`'",;[\]<>]+?\.md)/g;
const EXT_REF = /extensions\/[^\s()`'",;[\]<>]+?\.md/g;
const DATE = /(\d{4}-\d{2}-\d{2})(?!\d)/g;
export const DAY_MS = 86_400_000;

/** The inputs one item names: rollout summary file names, extension file paths, and the dates it mentions. */
export interface Refs {
  rollouts: string[];
  exts: string[];
  /** Start of each `YYYY-MM-DD` day the text mentions (a day heading, "last seen …", a file name's date), in ms. */
  dates: number[];
}

export function refsOf(lines: readonly string[]): Refs {
  const text = lines.join('\n');
  const dates = Array.from(text.matchAll(DATE), (m) => Date.parse(`${group(m, 1)}T00:00:00Z`)).filter(Number.isFinite);
  return {
    rollouts: Array.from(text.matchAll(ROLLOUT_REF), (m) => group(m, 1)),
    exts: Array.from(text.matchAll(EXT_REF), (m) => m[0]),
    dates,
  };
}

/** What an existing summary is placed against: the doc, its separator style and the rollouts by file name. */
export interface PlaceCtx {
  doc: SummaryDoc;
  /** `['']` when headings are followed by a blank line (the v1 layout), `[]` otherwise (v2). */
  gap: string[];
  byFile: ReadonlyMap<string, Entry>;
}

/** How recent an item is: its newest rollout's `updated_at`, else the newest day it mentions; -Infinity when unknown. */
export function timeOf(ctx: PlaceCtx, lines: readonly string[]): number {
  const refs = refsOf(lines);
  let t = -Infinity;
  for (const f of refs.rollouts) t = Math.max(t, ctx.byFile.get(f)?.rollout.updatedMs || -Infinity);
  for (const d of refs.dates) t = Math.max(t, d);
  return t;
}

/** The time of a heading item and everything under it. */
function rangeTime(ctx: PlaceCtx, at: number): number {
  return timeOf(
    ctx,
    ctx.doc.items.slice(at, childrenEnd(ctx.doc, at)).flatMap((i) => i.lines),
  );
}

/** Index of the first item of `kind` titled `title` in `[from, to)`, or -1. */
function find(doc: SummaryDoc, kind: Item['kind'], title: string, from: number, to: number): number {
  for (let i = from; i < to; i++) if (doc.items[i]?.kind === kind && doc.items[i]?.title === title) return i;
  return -1;
}

/** Items of `kind` under heading `at` (for a `###` scope its `####` groups, for a group its entries). */
function children(doc: SummaryDoc, at: number, kind: Item['kind']): number[] {
  const out: number[] = [];
  for (let i = at + 1, end = childrenEnd(doc, at); i < end; i++) if (doc.items[i]?.kind === kind) out.push(i);
  return out;
}

/**
 * Puts `items` under heading `at`: before the first child of the same kind that `isOlder` says is older (newest
 * first, as the template orders scopes, days and topics), else after its last child, else right under the heading.
 */
function insertSorted(ctx: PlaceCtx, at: number, kind: Item['kind'], items: Item[], isOlder: (child: number) => boolean): void {
  const doc = ctx.doc;
  const first = children(doc, at, kind).find(isOlder);
  const bulletJoin = kind === 'entry' ? [] : ctx.gap;
  if (first !== undefined) return insertBefore(doc, first, items, bulletJoin);
  const end = childrenEnd(doc, at);
  insertAfter(doc, end - 1, items, end - 1 === at ? ctx.gap : bulletJoin);
}

/** `### Older Memory Topics` (added at the end of "What's in Memory" when missing). */
function olderHeading(ctx: PlaceCtx): number {
  const wim = sectionRange(ctx.doc, WIM) as [number, number];
  const at = find(ctx.doc, 'scope', OLDER, wim[0], wim[1]);
  if (at >= 0) return at;
  insertAfter(ctx.doc, wim[1] - 1, [headingItem('scope', OLDER, ctx.gap)], ctx.gap);
  return wim[1];
}

/** The recent part's `### <scope>`, created among the scopes by recency (before the older topics) when missing. */
function recentScope(ctx: PlaceCtx, scope: string, time: number): number {
  const doc = ctx.doc;
  const wim = sectionRange(doc, WIM) as [number, number];
  const older = find(doc, 'scope', OLDER, wim[0], wim[1]);
  const end = older >= 0 ? older : wim[1];
  const at = find(doc, 'scope', scope, wim[0], end);
  if (at >= 0) return at;
  const item = headingItem('scope', scope, ctx.gap);
  const later = children(doc, wim[0], 'scope').find((i) => i < end && rangeTime(ctx, i) < time);
  if (later !== undefined) insertBefore(doc, later, [item], ctx.gap);
  else if (older >= 0) insertBefore(doc, older, [item], ctx.gap);
  else insertAfter(doc, wim[1] - 1, [item], ctx.gap);
  return doc.items.indexOf(item);
}

/** The `#### <day>` group under a recent scope, created among the scope's days (newest first) when missing. */
export function recentGroup(ctx: PlaceCtx, scope: string, day: string, time: number): number {
  const s = recentScope(ctx, scope, time);
  const at = find(ctx.doc, 'group', day, s + 1, childrenEnd(ctx.doc, s));
  if (at >= 0) return at;
  const item = headingItem('group', day, ctx.gap);
  insertSorted(ctx, s, 'group', [item], (i) => itemAt(ctx.doc.items, i).title < day);
  return ctx.doc.items.indexOf(item);
}

/** The `#### <scope>` group under `### Older Memory Topics`, created (by recency) when missing. */
export function olderGroup(ctx: PlaceCtx, scope: string, time: number): number {
  const o = olderHeading(ctx);
  const at = find(ctx.doc, 'group', scope, o + 1, childrenEnd(ctx.doc, o));
  if (at >= 0) return at;
  const item = headingItem('group', scope, ctx.gap);
  insertSorted(ctx, o, 'group', [item], (i) => rangeTime(ctx, i) < time);
  return ctx.doc.items.indexOf(item);
}

/** An entry placed in group `at` before the first entry older than `time`. */
export function placeEntry(ctx: PlaceCtx, at: number, item: Item, time: number): void {
  insertSorted(ctx, at, 'entry', [item], (i) => timeOf(ctx, itemAt(ctx.doc.items, i).lines) < time);
}

/** Entries appended at the end of group `at`. */
export function appendEntries(ctx: PlaceCtx, at: number, items: Item[]): void {
  const end = childrenEnd(ctx.doc, at);
  insertAfter(ctx.doc, end - 1, items, end - 1 === at ? ctx.gap : []);
}
