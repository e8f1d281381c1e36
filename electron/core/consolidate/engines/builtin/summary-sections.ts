// What a merge adds to an existing memory_summary.md outside the dated index: preferences, tips, notes, imports.
import { group, itemAt } from '../../../platform/indexed';
import { itemText } from './existing';
import { normKey, type Entry } from './model';
import type { WorkspaceLabel } from './parse';
import { entryItem, insertAfter, insertBefore, ownLine, sectionRange, WIM, wimPlaces, type Item } from './summary-doc';
import { appendEntries, olderGroup, refsOf, type PlaceCtx } from './summary-place';

/** An older-topics group that is not a rollout scope (an import, another extension), with the files it covers. */
export interface Extra {
  heading: string;
  files: readonly string[];
  lines: readonly string[];
}

const AD_HOC_TAG = /\[ad-hoc note\]/i;
const isNew = (label: WorkspaceLabel | undefined): boolean => label === 'A' || label === 'M';

/** Index and entry items of a `## ` section. */
function sectionEntries(ctx: PlaceCtx, title: string): { heading: number; entries: number[] } {
  const [start, end] = sectionRange(ctx.doc, title) as [number, number];
  const entries: number[] = [];
  for (let i = start + 1; i < end; i++) if (ctx.doc.items[i]?.kind === 'entry') entries.push(i);
  return { heading: start, entries };
}

/** Bullets inserted after the section's last bullet that `after` accepts (else before its first, else under its heading). */
function insertBullets(ctx: PlaceCtx, title: string, bullets: readonly string[], after: (item: Item) => boolean): void {
  if (bullets.length === 0) return;
  const { heading, entries } = sectionEntries(ctx, title);
  const items = bullets.map((b) => entryItem([b]));
  const anchor = [...entries].reverse().find((i) => after(itemAt(ctx.doc.items, i)));
  const first = entries[0];
  if (anchor !== undefined) insertAfter(ctx.doc, anchor, items, []);
  else if (first !== undefined) insertBefore(ctx.doc, first, items, []);
  else insertAfter(ctx.doc, heading, items, ctx.gap);
}

function noteTime(file: string): number {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})/.exec(file);
  return m ? Date.parse(`${group(m, 1)}T${group(m, 2)}:${group(m, 3)}:${group(m, 4)}Z`) : -Infinity;
}

export interface BulletSource {
  preferences: readonly string[];
  tips: readonly string[];
  notes: ReadonlyArray<{ path: string; file: string; fact: string }>;
}

/**
 * Preferences and tips the new rollouts carry that rank among the rebuild's candidates and are not there yet (after the
 * last derived bullet, before the note lines), and lines for new or edited notes (at the end). Nothing is reworded or
 * removed: a hand-written or note line cannot be traced to its input, so it stays.
 */
export function addBullets(
  ctx: PlaceCtx,
  src: BulletSource,
  added: readonly Entry[],
  diff: ReadonlyMap<string, WorkspaceLabel> | null,
  covered: number,
): void {
  const present = new Set(
    ['User preferences', 'General Tips'].flatMap((t) =>
      sectionEntries(ctx, t).entries.map((i) => normKey(itemText(ownLine(itemAt(ctx.doc.items, i))))),
    ),
  );
  const carried = (list: (e: Entry) => readonly string[]) => new Set(added.flatMap(list).map(normKey));
  const pick = (candidates: readonly string[], from: ReadonlySet<string>) =>
    candidates.filter((c) => from.has(normKey(c)) && !present.has(normKey(c)) && (present.add(normKey(c)), true)).map((c) => `- ${c}`);
  const notDerived = (item: Item) => !AD_HOC_TAG.test(ownLine(item));
  insertBullets(
    ctx,
    'User preferences',
    pick(
      src.preferences,
      carried((e) => e.preferences),
    ),
    notDerived,
  );
  insertBullets(
    ctx,
    'General Tips',
    pick(
      src.tips,
      carried((e) => e.knowledge),
    ),
    () => true,
  );
  const notes = src.notes.filter(
    (n) => n.fact !== '' && !present.has(normKey(n.fact)) && (diff ? isNew(diff.get(n.path)) : noteTime(n.file) > covered),
  );
  insertBullets(
    ctx,
    'User preferences',
    notes.map((n) => `- ${n.fact} [ad-hoc note]`),
    () => true,
  );
}

/** Top-level bullets (with their indented lines) as entry items. */
function bulletItems(lines: readonly string[]): Item[] {
  const out: Item[] = [];
  for (const line of lines) {
    const last = out.at(-1);
    if (/^\s/.test(line) && last) last.lines.push(line);
    else out.push(entryItem([line]));
  }
  return out;
}

/**
 * An import or extension group the index does not have yet (no group of that heading, no entry naming its files) goes
 * last under the older topics, as the rebuild places it; with a workspace diff only when one of its files is new.
 */
export function addExtras(ctx: PlaceCtx, extras: readonly Extra[], diff: ReadonlyMap<string, WorkspaceLabel> | null): void {
  const range = sectionRange(ctx.doc, WIM) as [number, number];
  const headings = new Set(
    ctx.doc.items
      .slice(range[0], range[1])
      .filter((i) => i.kind === 'group')
      .map((i) => i.title),
  );
  const named = new Set(wimPlaces(ctx.doc).flatMap((p) => refsOf(p.item.lines).exts));
  for (const extra of extras) {
    if (extra.lines.length === 0 || headings.has(extra.heading) || extra.files.some((f) => named.has(f))) continue;
    if (diff && !extra.files.some((f) => isNew(diff.get(f)))) continue;
    appendEntries(ctx, olderGroup(ctx, extra.heading, -Infinity), bulletItems(extra.lines));
  }
}
