// The "What's in Memory" part of memory_summary.md: recent memory days per project scope, then older topics.
import { itemAt } from '../../../platform/indexed';
import { appendAll } from '../../../platform/append';
import { cmp, type Entry } from './model';
import { clip } from './parse';
import type { Level } from './summary';

export interface ScopeView {
  name: string;
  newestMs: number;
  /** Dated memory days, newest first, each with its entries newest first. */
  days: Array<{ day: string; entries: Entry[] }>;
  /** Entries without a usable `updated_at` (always older topics). */
  undated: Entry[];
}

/** One view per scope, most recently active scope first; `entries` must be newest first. */
export function scopeViews(entries: readonly Entry[]): ScopeView[] {
  const byScope = new Map<string, ScopeView>();
  for (const e of entries) {
    let view = byScope.get(e.scope);
    if (!view) byScope.set(e.scope, (view = { name: e.scope, newestMs: e.rollout.updatedMs, days: [], undated: [] }));
    if (e.rollout.updatedMs <= 0) {
      view.undated.push(e);
      continue;
    }
    const last = view.days[view.days.length - 1];
    if (last && last.day === e.day) last.entries.push(e);
    else view.days.push({ day: e.day, entries: [e] });
  }
  return [...byScope.values()].sort((a, b) => b.newestMs - a.newestMs || cmp(a.name, b.name));
}

/** Entries grouped by topic, in order of each topic's newest entry. */
function byTopic(entries: readonly Entry[]): Entry[][] {
  const groups = new Map<string, Entry[]>();
  for (const e of entries) {
    const list = groups.get(e.topic);
    if (list) list.push(e);
    else groups.set(e.topic, [e]);
  }
  return [...groups.values()];
}

/** A topic group's first entry, its newest: groups are built from one entry on and never emptied. */
const newest = (group: readonly Entry[]): Entry => itemAt(group, 0);

function pointer(e: Entry, detail: boolean): string[] {
  const sentence = clip(e.sentence.replace(/;\s*thread_id=/g, ', thread '), 160);
  const line = `- rollout_summaries/${e.rollout.file} — ${sentence}; thread_id=${e.rollout.threadId}`;
  return detail && e.rollout.gitBranch ? [line, `  - branch: ${e.rollout.gitBranch}`] : [line];
}

function recentTopic(group: Entry[], level: Level): string[] {
  const e = newest(group);
  const more = group.length > 1 ? `, +${group.length - 1} more` : '';
  const lines = [`- ${e.topic}: ${e.keywords.join(', ')}`, `  - desc: ${e.sentence}. (rollout_summaries/${e.rollout.file}${more})`];
  const learning = e.knowledge[0];
  if (level.detail && learning) lines.push(`  - learnings: ${learning}`);
  return lines;
}

function olderTopic(group: Entry[], level: Level): string[] {
  const e = newest(group);
  const seen = group.length > 1 ? `last seen ${e.day}, ${group.length} sessions` : `last seen ${e.day}`;
  const ref = `rollout_summaries/${e.rollout.file}`;
  const desc =
    level.olderDesc === 'full'
      ? `${e.sentence}. (${seen}; ${ref})`
      : level.olderDesc === 'clip'
        ? `${clip(e.sentence, 90)} (${seen}; ${ref})`
        : `${seen} (${ref})`;
  return [`- ${e.topic}: ${e.keywords.slice(0, 3).join(', ')}`, `  - desc: ${desc}`];
}

/** One topic group of the rendered index: which part, scope and memory day it sits under. */
export interface PlacedGroup {
  part: 'recent' | 'older';
  scope: string;
  /** The memory day (recent part only). */
  day: string | null;
  /** The topic group, newest first (v2 shows only its newest entry). */
  group: Entry[];
}

/** The lines of one topic group: a v1 topic bullet (recent or older form) or a v2 pointer line. */
export function groupLines(g: Pick<PlacedGroup, 'part' | 'group'>, level: Level, v1: boolean): string[] {
  if (!v1) return pointer(newest(g.group), level.detail);
  return g.part === 'recent' ? recentTopic(g.group, level) : olderTopic(g.group, level);
}

/** The memory days the recent part shows for this scope at this level, each with its topic groups. */
function recentDays(s: ScopeView, level: Level): Array<{ day: string; groups: Entry[][] }> {
  if (level.perDay === 0) return [];
  return s.days.slice(0, level.days).map(({ day, entries }) => ({ day, groups: byTopic(entries).slice(0, level.perDay) }));
}

/** Older topic groups, those the recent part does not show first (each part newest first). */
function olderGroups(s: ScopeView, older: Entry[], level: Level): Entry[][] {
  const shown = new Set(recentDays(s, level).flatMap((d) => d.groups.map((g) => newest(g).topic)));
  const groups = byTopic(older);
  return [...groups.filter((g) => !shown.has(newest(g).topic)), ...groups.filter((g) => shown.has(newest(g).topic))];
}

/** `### <scope>` with `#### <day>` groups for the scope's last `level.days` memory days. */
export function recentLines(s: ScopeView, level: Level, v1: boolean): string[] {
  const days = recentDays(s, level);
  if (days.length === 0) return [];
  const gap = v1 ? [''] : [];
  const out = [`### ${s.name}`, ...gap];
  for (const { day, groups } of days) {
    out.push(`#### ${day}`, ...gap);
    for (const group of groups) appendAll(out, groupLines({ part: 'recent', group }, level, v1));
    out.push(...gap);
  }
  return out;
}

function olderEntries(s: ScopeView, level: Level): Entry[] {
  const recent = level.perDay === 0 ? 0 : level.days;
  return [...s.days.slice(recent).flatMap((d) => d.entries), ...s.undated];
}

/** Scopes with older entries, the scope with the newest older entry first. */
function olderScopes(scopes: readonly ScopeView[], level: Level): Array<{ s: ScopeView; older: Entry[]; groups: Entry[][] }> {
  return scopes
    .map((s) => ({ s, older: olderEntries(s, level) }))
    .filter((x) => x.older.length > 0)
    .sort((a, b) => newest(b.older).rollout.updatedMs - newest(a.older).rollout.updatedMs || cmp(a.s.name, b.s.name))
    .map((x) => ({ ...x, groups: olderGroups(x.s, x.older, level) }));
}

/** `#### <scope>` groups of compact older entries, the scope with the newest older entry first. */
export function olderLines(scopes: readonly ScopeView[], level: Level, v1: boolean): string[] {
  const gap = v1 ? [''] : [];
  const out: string[] = [];
  for (const { s, older, groups } of olderScopes(scopes, level)) {
    out.push(`#### ${s.name}`, ...gap);
    if (level.older === 0) {
      const oldest = itemAt(older, older.length - 1);
      out.push(`- ${older.length} older sessions from ${oldest.day} to ${newest(older).day} (${groups.length} topics)`);
    }
    for (const group of groups.slice(0, level.older)) appendAll(out, groupLines({ part: 'older', group }, level, v1));
    out.push(...gap);
  }
  return out;
}

/** Every topic group the index shows at `level`, in the order the rendering writes them. */
export function placedGroups(scopes: readonly ScopeView[], level: Level): PlacedGroup[] {
  const out: PlacedGroup[] = [];
  for (const s of scopes)
    for (const { day, groups } of recentDays(s, level)) for (const group of groups) out.push({ part: 'recent', scope: s.name, day, group });
  for (const { s, groups } of olderScopes(scopes, level))
    for (const group of groups.slice(0, level.older)) out.push({ part: 'older', scope: s.name, day: null, group });
  return out;
}
