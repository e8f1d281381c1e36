// Near-identical search hits folded together: the same passage copied across files and lines shows once, "N similar hits".
import type { SearchHit } from '../../../shared/search';

export interface HitGroup {
  /** The normalised text the hits share. */
  key: string;
  /** The best-ranked hit, shown for the group. */
  first: SearchHit;
  /** The other hits with the same text, in rank order. */
  similar: SearchHit[];
}

/**
 * The text two hits must share to count as near-identical: the snippet with case, spacing, list and quote marks,
 * trailing punctuation and numbers (dates, counts, line numbers, ids made of digits) set aside.
 */
export function normaliseSnippet(snippet: string): string {
  return snippet
    .toLowerCase()
    .replace(/^[\s>*+\-#\d.)]+/, '')
    .replace(/\d+/g, '0')
    .replace(/\s+/g, ' ')
    .replace(/[\s.,;:!?…]+$/, '')
    .trim();
}

/** Hits in rank order, folded by their normalised snippet; each group sits where its best hit ranked. */
export function groupHits(hits: readonly SearchHit[]): HitGroup[] {
  const groups: HitGroup[] = [];
  const byKey = new Map<string, HitGroup>();
  for (const hit of hits) {
    const key = normaliseSnippet(hit.snippet);
    const group = key === '' ? undefined : byKey.get(key);
    if (group) {
      group.similar.push(hit);
      continue;
    }
    const created: HitGroup = { key, first: hit, similar: [] };
    groups.push(created);
    if (key !== '') byKey.set(key, created);
  }
  return groups;
}

export type HitRow =
  { type: 'hit'; hit: SearchHit; similar: boolean } | { type: 'more'; key: string; count: number; expanded: boolean; paths: number };

/** The rows the list shows: each group's best hit, its "N similar hits" toggle, and the similar hits when expanded. */
export function hitRows(groups: readonly HitGroup[], expanded: ReadonlySet<string>): HitRow[] {
  const rows: HitRow[] = [];
  for (const group of groups) {
    rows.push({ type: 'hit', hit: group.first, similar: false });
    if (group.similar.length === 0) continue;
    const open = expanded.has(group.key);
    const paths = new Set(group.similar.map((h) => `${h.version}:${h.relPath}`)).size;
    rows.push({ type: 'more', key: group.key, count: group.similar.length, expanded: open, paths });
    if (open) for (const hit of group.similar) rows.push({ type: 'hit', hit, similar: true });
  }
  return rows;
}
