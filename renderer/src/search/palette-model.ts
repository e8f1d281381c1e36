// What the command palette offers for a query: actions, files by path, and blocks from the index, in one ranked list.
import type { FileList, MemoryVersion } from '../../../shared/domain';
import type { BlockHit } from '../../../shared/search';
import type { ThemeSetting } from '../hooks/use-color-scheme';
import { viewKey, viewLabels, views, type LineSpan, type View } from '../navigation/location';

export type PaletteItem =
  | { type: 'action'; id: string; label: string; detail: string; run: PaletteAction }
  | { type: 'file'; id: string; label: string; detail: string; version: MemoryVersion; path: string }
  | { type: 'block'; id: string; label: string; detail: string; version: MemoryVersion; path: string; span: LineSpan };

export type PaletteAction =
  | { kind: 'view'; view: View }
  | { kind: 'search'; query: string }
  | { kind: 'back' }
  | { kind: 'theme'; theme: ThemeSetting }
  | { kind: 'leaveDemo' };

/** "Theme: System / Light / Dark", as in the status bar's picker. */
const themeActions: ReadonlyArray<{ theme: ThemeSetting; label: string; detail: string }> = [
  { theme: 'system', label: 'Theme: System', detail: 'Follow the light or dark setting of the OS' },
  { theme: 'light', label: 'Theme: Light', detail: 'Always light' },
  { theme: 'dark', label: 'Theme: Dark', detail: 'Always dark' },
];

/** What the palette offers beyond files and views: "Return to your home" while a demo replaced it. */
export interface PaletteOptions {
  /** The home a demo home replaced (HomeInfo.returnHome), or null. */
  returnHome?: string | null;
}

const LEAVE_DEMO_LABEL = 'Return to your home (leave the demo)';

const FILE_LIMIT = 8;

const blockKindLabels: Record<string, string> = {
  'memory-block': 'MEMORY.md block',
  'memory-task': 'MEMORY.md task',
  'summary-scope': 'Summary scope',
  'raw-thread': 'Raw memory thread',
  'raw-task': 'Raw memory task',
  rollout: 'Rollout summary',
  skill: 'Skill',
  section: 'Heading',
  passage: 'Passage (by meaning)',
};

function actions(query: string, options: PaletteOptions): PaletteItem[] {
  const q = query.trim().toLowerCase();
  const out: PaletteItem[] = [];
  const words = q.split(/\s+/).filter(Boolean);
  if (options.returnHome && words.every((word) => LEAVE_DEMO_LABEL.toLowerCase().includes(word)))
    out.push({ type: 'action', id: 'leave-demo', label: LEAVE_DEMO_LABEL, detail: options.returnHome, run: { kind: 'leaveDemo' } });
  if (q)
    out.push({
      type: 'action',
      id: 'search',
      label: `Search memory for “${query.trim()}”`,
      detail: 'Full text, ranked',
      run: { kind: 'search', query: query.trim() },
    });
  views.forEach((view) => {
    const label = `Go to ${viewLabels[view]}`;
    if (!q || label.toLowerCase().includes(q))
      out.push({
        type: 'action',
        id: `view-${view}`,
        label,
        detail: viewKey(view) === null ? '' : `Alt+${viewKey(view)}`,
        run: { kind: 'view', view },
      });
  });
  for (const { theme, label, detail } of themeActions) {
    if (!q || label.toLowerCase().includes(q))
      out.push({ type: 'action', id: `theme-${theme}`, label, detail, run: { kind: 'theme', theme } });
  }
  if (!q || 'go back'.includes(q))
    out.push({ type: 'action', id: 'back', label: 'Go back', detail: 'To the previous place in the Files view', run: { kind: 'back' } });
  return out;
}

/** Files whose path holds every word of the query; names that start with the first word come first. */
function files(lists: readonly FileList[], query: string): PaletteItem[] {
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const found: Array<{ item: PaletteItem; rank: number }> = [];
  for (const list of lists) {
    for (const file of list.files) {
      const path = file.path.toLowerCase();
      if (!words.every((w) => path.includes(w))) continue;
      const name = path.slice(path.lastIndexOf('/') + 1);
      const rank = name.startsWith(words[0] as string) ? 0 : name.includes(words[0] as string) ? 1 : 2;
      found.push({
        rank,
        item: {
          type: 'file',
          id: `file-${list.version}-${file.path}`,
          label: file.path,
          detail: `${list.version} file`,
          version: list.version,
          path: file.path,
        },
      });
      if (found.length > 500) break;
    }
  }
  return found
    .sort((a, b) => a.rank - b.rank || a.item.label.length - b.item.label.length)
    .slice(0, FILE_LIMIT)
    .map((f) => f.item);
}

function blocks(hits: readonly BlockHit[]): PaletteItem[] {
  return hits.map((b, i) => ({
    type: 'block',
    id: `block-${i}-${b.version}-${b.relPath}-${b.line}`,
    label: b.title,
    detail: `${blockKindLabels[b.kind] ?? b.kind} · ${b.version} ${b.relPath}:${b.line}${b.project ? ` · ${b.project}` : ''}`,
    version: b.version,
    path: b.relPath,
    span: { line: b.line, endLine: b.endLine },
  }));
}

/** The palette's list: actions the query names, files, blocks, then a full-text search for the query. */
export function paletteItems(
  query: string,
  lists: readonly FileList[],
  hits: readonly BlockHit[],
  options: PaletteOptions = {},
): PaletteItem[] {
  const all = actions(query, options);
  const named = query.trim() ? all.filter((a) => a.id !== 'search') : [];
  const rest = all.filter((a) => !named.includes(a));
  return [...named, ...files(lists, query), ...blocks(hits), ...rest];
}

/**
 * Where a label matches the query, for <mark>: every occurrence of each query word (case ignored), sorted and merged
 * into ranges that do not overlap, as [start, end) offsets into the label.
 */
export function matchRanges(label: string, query: string): Array<[number, number]> {
  const text = label.toLowerCase();
  const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const found: Array<[number, number]> = [];
  for (const word of words) {
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length)) found.push([at, at + word.length]);
  }
  found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of found) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}
