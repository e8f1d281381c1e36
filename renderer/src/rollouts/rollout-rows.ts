// Sorting and filtering of the rollout table, kept pure so 4,096 rows sort in one pass and tests can call them.
import type { RolloutRow } from '../../../shared/inspect';

export const sortKeys = ['date', 'project', 'branch', 'usage', 'citations'] as const;
export type SortKey = (typeof sortKeys)[number];
export type SortDirection = 'asc' | 'desc';
export interface SortState {
  key: SortKey;
  direction: SortDirection;
}

export const sortLabels: Record<SortKey, string> = {
  date: 'Updated',
  project: 'Project',
  branch: 'Branch',
  usage: 'Usage',
  citations: 'Citations',
};

/** Dates and counts read newest/highest first; names read A to Z. */
export const defaultDirection: Record<SortKey, SortDirection> = {
  date: 'desc',
  project: 'asc',
  branch: 'asc',
  usage: 'desc',
  citations: 'desc',
};

type SortValue = number | string | null;

function valueOf(row: RolloutRow, key: SortKey): SortValue {
  switch (key) {
    case 'date': {
      const ms = row.updatedAt ? Date.parse(row.updatedAt) : Number.NaN;
      return Number.isNaN(ms) ? null : ms;
    }
    case 'project':
      return row.project;
    case 'branch':
      return row.gitBranch;
    case 'usage':
      return row.dbUsageCount;
    case 'citations':
      return row.citations;
  }
}

function compareValues(a: SortValue, b: SortValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { sensitivity: 'base', numeric: true });
}

/** Rows without a value (no header date, no DB row) go last in either direction; ties fall back to the path. */
export function sortRows(rows: readonly RolloutRow[], sort: SortState): RolloutRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const keyed = rows.map((row) => ({ row, value: valueOf(row, sort.key) }));
  keyed.sort((x, y) => {
    if (x.value === null || y.value === null) {
      if (x.value !== y.value) return x.value === null ? 1 : -1;
    } else {
      const order = compareValues(x.value, y.value) * sign;
      if (order !== 0) return order;
    }
    return x.row.path < y.row.path ? -1 : x.row.path > y.row.path ? 1 : 0;
  });
  return keyed.map((entry) => entry.row);
}

/** Case-insensitive match on project, branch, title and file name; `neverCited` keeps only those paths. */
export function filterRows(rows: readonly RolloutRow[], text: string, neverCited: ReadonlySet<string> | null): RolloutRow[] {
  const needle = text.trim().toLowerCase();
  return rows.filter((row) => {
    if (neverCited && !neverCited.has(row.path)) return false;
    if (!needle) return true;
    return [row.project, row.gitBranch, row.title, row.path].some((field) => field?.toLowerCase().includes(needle));
  });
}
