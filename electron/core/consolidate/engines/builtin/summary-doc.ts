// An existing memory_summary.md as a flat list of items (headings and bullets) that serializes back byte for byte.
import { group, itemAt } from '../../../platform/indexed';

export const WIM = "What's in Memory";
export const OLDER = 'Older Memory Topics';

/** `section` = `## `, `scope` = `### `, `group` = `#### `, `entry` = a top-level bullet, `text` = anything before them. */
export type ItemKind = 'text' | 'section' | 'scope' | 'group' | 'entry';

export interface Item {
  kind: ItemKind;
  /** Heading text (headings only). */
  title: string;
  /** Its own line first, then every following line up to the next item: continuations, prose, blank lines. */
  lines: string[];
}

export interface SummaryDoc {
  items: Item[];
  finalNewline: boolean;
  /** `\r` when most lines end with CRLF: lines keep their own `\r`, and lines the merge adds get one too. */
  cr: '' | '\r';
}

const HEADING = /^(#{2,4})\s+(.*?)\s*$/;
const BULLET = /^[-*+]\s/;
const KINDS: Record<number, ItemKind> = { 2: 'section', 3: 'scope', 4: 'group' };

/** An item's own line (its heading or bullet line): every item has one. */
export const ownLine = (item: Item): string => itemAt(item.lines, 0);

const bare = (line: string): string => (line.endsWith('\r') ? line.slice(0, -1) : line);
export const isBlank = (line: string): boolean => bare(line).trim() === '';

export function parseSummaryDoc(text: string): SummaryDoc {
  const finalNewline = text.endsWith('\n');
  const lines = (finalNewline ? text.slice(0, -1) : text).split('\n');
  const crlf = lines.filter((l) => l.endsWith('\r')).length;
  const items: Item[] = [];
  for (const line of lines) {
    const h = HEADING.exec(bare(line));
    // HEADING matches 2 to 4 `#`, all in KINDS.
    const kind: ItemKind | null = h ? (KINDS[group(h, 1).length] ?? null) : BULLET.test(line) ? 'entry' : null;
    const last = kind ? null : items.at(-1);
    if (kind) items.push({ kind, title: h ? group(h, 2) : '', lines: [line] });
    else if (last) last.lines.push(line);
    else items.push({ kind: 'text', title: '', lines: [line] });
  }
  return { items, finalNewline, cr: crlf > lines.length / 2 ? '\r' : '' };
}

export function serializeSummaryDoc(doc: SummaryDoc): string {
  const lines = doc.items.flatMap((i) => i.lines);
  return lines.length === 0 ? '' : `${lines.join('\n')}${doc.finalNewline ? '\n' : ''}`;
}

/** The blank lines an item ends with (its separator from the next item). */
export function trailOf(item: Item): string[] {
  let end = item.lines.length;
  while (end > 1 && isBlank(itemAt(item.lines, end - 1))) end--;
  return item.lines.slice(end);
}

function withTrail(item: Item, trail: readonly string[]): void {
  item.lines = [...item.lines.slice(0, item.lines.length - trailOf(item).length), ...trail];
}

/** `[start, end)` of the `## title` section (its heading included), or null. */
export function sectionRange(doc: SummaryDoc, title: string): [number, number] | null {
  const start = doc.items.findIndex((i) => i.kind === 'section' && i.title === title);
  if (start < 0) return null;
  let end = start + 1;
  while (end < doc.items.length && doc.items[end]?.kind !== 'section') end++;
  return [start, end];
}

/** Where an item of "What's in Memory" sits: its scope (`### `) and group (`#### `) items, and whether it is older. */
export interface Place {
  index: number;
  /** The item at `index` when the places were taken. */
  item: Item;
  older: boolean;
  scope: number | null;
  group: number | null;
}

/** Every item of "What's in Memory" (its heading excluded) with its place, in file order. */
export function wimPlaces(doc: SummaryDoc): Place[] {
  const range = sectionRange(doc, WIM);
  if (!range) return [];
  const out: Place[] = [];
  let older = false;
  let scope: number | null = null;
  let group: number | null = null;
  const [start, end] = range;
  for (const [k, item] of doc.items.slice(start + 1, end).entries()) {
    const i = start + 1 + k;
    if (item.kind === 'scope') {
      older = item.title === OLDER;
      scope = older ? null : i;
      group = null;
    } else if (item.kind === 'group') {
      if (older) scope = i;
      else group = i;
    }
    out.push({ index: i, item, older, scope, group });
  }
  return out;
}

const RANK: Partial<Record<ItemKind, number>> = { section: 2, scope: 3, group: 4 };

/** Index after the last item under heading item `at` (up to the next heading of the same or a higher level). */
export function childrenEnd(doc: SummaryDoc, at: number): number {
  const rank = RANK[itemAt(doc.items, at).kind] ?? 5;
  let end = at + 1;
  while (end < doc.items.length && (RANK[itemAt(doc.items, end).kind] ?? 9) > rank) end++;
  return end;
}

/** The heading items (`####`, then `###`) whose range holds item `at`, innermost first. */
function containersOf(doc: SummaryDoc, at: number): Item[] {
  const out: Item[] = [];
  let rank = RANK.group as number;
  for (let i = at - 1; i >= 0 && rank >= 3; i--) {
    const item = itemAt(doc.items, i);
    const r = RANK[item.kind];
    if (r === undefined || r > rank) continue;
    if (r === 2) break;
    out.push(item);
    rank = r - 1;
  }
  return out;
}

/**
 * Removes entry items, then the `####` / `###` headings they leave with nothing under them (never `### Older Memory
 * Topics`, never a heading with text of its own), so no empty day group or scope stays behind.
 */
export function removeEntries(doc: SummaryDoc, drop: ReadonlySet<Item>): void {
  if (drop.size === 0) return;
  const containers = new Set<Item>();
  doc.items.forEach((item, i) => {
    if (drop.has(item)) for (const c of containersOf(doc, i)) containers.add(c);
  });
  removeItems(
    doc,
    doc.items.flatMap((item, i) => (drop.has(item) ? [i] : [])),
  );
  for (const kind of ['group', 'scope'] as const) {
    const empty = doc.items.flatMap((item, i) => {
      if (item.kind !== kind || !containers.has(item) || item.title === OLDER) return [];
      const own = item.lines.slice(1).some((l) => !isBlank(l));
      return own || childrenEnd(doc, i) > i + 1 ? [] : [i];
    });
    removeItems(doc, empty);
  }
}

/**
 * Removes items (indexes, any order). The blank lines a removed item ended with go to the item before it when that
 * one has none, so the spacing between what stays is as it was.
 */
export function removeItems(doc: SummaryDoc, indexes: Iterable<number>): void {
  const drop = new Set(indexes);
  const kept: Item[] = [];
  doc.items.forEach((item, i) => {
    if (!drop.has(i)) {
      kept.push(item);
      return;
    }
    const prev = kept[kept.length - 1];
    const trail = trailOf(item);
    if (prev && trail.length > 0 && trailOf(prev).length === 0) withTrail(prev, trail);
  });
  doc.items = kept;
}

/** Inserts `items` before index `at`; the last inserted item ends with `gap` (the separator style of the file). */
export function insertBefore(doc: SummaryDoc, at: number, items: Item[], gap: readonly string[]): void {
  const last = items.at(-1);
  if (last === undefined) return;
  withTrail(last, gap);
  doc.items.splice(at, 0, ...items);
}

/**
 * Inserts `items` after index `after`: they take over that item's trailing blank lines (so what followed it is still
 * separated the same way) and it keeps `join` (no blank line between bullets, a blank line before a heading in v1).
 */
export function insertAfter(doc: SummaryDoc, after: number, items: Item[], join: readonly string[]): void {
  const last = items.at(-1);
  if (last === undefined) return;
  const prev = itemAt(doc.items, after);
  const trail = trailOf(prev);
  withTrail(prev, join);
  withTrail(last, trail);
  doc.items.splice(after + 1, 0, ...items);
}

export function entryItem(lines: readonly string[]): Item {
  return { kind: 'entry', title: '', lines: [...lines] };
}

export function headingItem(kind: 'scope' | 'group', title: string, gap: readonly string[]): Item {
  return { kind, title, lines: [`${kind === 'scope' ? '###' : '####'} ${title}`, ...gap] };
}
