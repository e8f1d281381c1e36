// Flattens roots, kind groups and files into positioned rows, so the sidebar can render only what is on screen.
import { fileKinds, type FileEntry, type FileKind, type FileList, type MemoryVersion, type RootInfo } from '../../../shared/domain';

/** Trees with more rows than this mount only the rows near the viewport. */
export const WINDOWING_THRESHOLD = 600;

/** Fixed heights keep windowing a matter of arithmetic (4,096 rollout summaries must scroll smoothly). */
export const rowHeights = { root: 30, group: 26, file: 24, note: 24, rootNotRead: 48 } as const;

export interface RootSection {
  root: RootInfo;
  list: FileList | undefined;
  status: 'loading' | 'error' | 'ready';
  /** "not read by Codex (config: v1)" on a root a new Codex session is not told about; null or absent otherwise. */
  notRead?: string | null;
}

interface RowBase {
  key: string;
  version: MemoryVersion;
  top: number;
  height: number;
  /** aria-level: 1 root, 2 group, 3 file. */
  level: 1 | 2 | 3;
}

export type TreeRow =
  | (RowBase & {
      type: 'root';
      root: RootInfo;
      fileCount: number;
      expanded: boolean;
      status: RootSection['status'];
      notRead: string | null;
    })
  | (RowBase & { type: 'group'; kind: FileKind; total: number; matches: number; expanded: boolean })
  | (RowBase & { type: 'file'; file: FileEntry; posInSet: number; setSize: number; commonDir: string })
  | (RowBase & { type: 'note'; text: string });

export interface TreeModel {
  rows: TreeRow[];
  totalHeight: number;
  /** Indexes of root, group and note rows: always mounted. */
  structural: number[];
}

type WithoutTop<T> = T extends unknown ? Omit<T, 'top'> : never;

export interface KindGroup {
  kind: FileKind;
  files: readonly FileEntry[];
  /** Folder shared by every file of the group (`rollout_summaries/`); rows leave it out. */
  commonDir: string;
}

export type KindGroups = readonly KindGroup[];

function commonDirOf(files: readonly FileEntry[]): string {
  const first = files[0]?.path ?? '';
  let prefix = first.slice(0, first.lastIndexOf('/') + 1);
  for (const file of files) {
    while (prefix && !file.path.startsWith(prefix)) {
      prefix = prefix.slice(0, prefix.lastIndexOf('/', prefix.length - 2) + 1);
    }
    if (!prefix) break;
  }
  return prefix;
}

/** Groups a root's files by kind in the canonical kind order, files sorted by path. Memoize per list. */
export function groupByKind(files: readonly FileEntry[]): KindGroups {
  const byKind = new Map<FileKind, FileEntry[]>();
  for (const file of files) {
    const bucket = byKind.get(file.kind);
    if (bucket) bucket.push(file);
    else byKind.set(file.kind, [file]);
  }
  const groups: KindGroup[] = [];
  for (const kind of fileKinds) {
    const bucket = byKind.get(kind);
    if (!bucket) continue;
    bucket.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    groups.push({ kind, files: bucket, commonDir: commonDirOf(bucket) });
  }
  return groups;
}

export const rootKey = (version: MemoryVersion) => `root:${version}`;
export const groupKey = (version: MemoryVersion, kind: FileKind) => `group:${version}:${kind}`;
export const fileKey = (version: MemoryVersion, path: string) => `file:${version}:${path}`;

/** Groups bigger than this start folded, so 4,096 rollout summaries do not bury the rest of the tree. */
export const FOLD_BY_DEFAULT_ABOVE = 200;

export interface BuildInput {
  sections: ReadonlyArray<{ section: RootSection; groups: KindGroups }>;
  /** Lower-cased filter text; empty shows everything. */
  filter: string;
  /**
   * Keys the person folded or unfolded, relative to each row's default (big groups folded, the rest
   * open; everything open while filtering). The sidebar keeps one set per mode.
   */
  toggled: ReadonlySet<string>;
}

export function buildTreeModel({ sections, filter, toggled }: BuildInput): TreeModel {
  const rows: TreeRow[] = [];
  const structural: number[] = [];
  let top = 0;
  const push = (row: WithoutTop<TreeRow>): void => {
    if (row.type !== 'file') structural.push(rows.length);
    rows.push({ ...row, top });
    top += row.height;
  };

  for (const { section, groups } of sections) {
    const { version } = section.root;
    const rootExpanded = !toggled.has(rootKey(version));
    push({
      type: 'root',
      key: rootKey(version),
      version,
      // A root Codex does not read says so on a second line of its heading.
      height: section.notRead ? rowHeights.rootNotRead : rowHeights.root,
      level: 1,
      root: section.root,
      fileCount: section.list?.files.length ?? 0,
      expanded: rootExpanded,
      status: section.status,
      notRead: section.notRead ?? null,
    });
    if (!rootExpanded) continue;
    if (section.status !== 'ready') {
      const text = section.status === 'loading' ? 'Listing files…' : 'Could not list files (see above).';
      push({ type: 'note', key: `note:${version}`, version, height: rowHeights.note, level: 2, text });
      continue;
    }
    if (groups.length === 0) {
      push({ type: 'note', key: `note:${version}`, version, height: rowHeights.note, level: 2, text: 'This root is empty.' });
      continue;
    }
    for (const { kind, files, commonDir } of groups) {
      const matching = filter ? files.filter((f) => f.path.toLowerCase().includes(filter)) : files;
      const key = groupKey(version, kind);
      // While filtering every group starts open: the matches are what the person is looking for.
      const openByDefault = filter !== '' || files.length <= FOLD_BY_DEFAULT_ABOVE;
      const expanded = openByDefault !== toggled.has(key);
      push({
        type: 'group',
        key,
        version,
        height: rowHeights.group,
        level: 2,
        kind,
        total: files.length,
        matches: matching.length,
        expanded,
      });
      if (!expanded) continue;
      matching.forEach((file, index) => {
        push({
          type: 'file',
          key: fileKey(version, file.path),
          version,
          height: rowHeights.file,
          level: 3,
          file,
          posInSet: index + 1,
          setSize: matching.length,
          commonDir,
        });
      });
    }
  }
  return { rows, totalHeight: top, structural };
}

/** Index of the first row whose bottom is below `offset` (rows are sorted by top). */
export function rowIndexAt(rows: readonly TreeRow[], offset: number): number {
  let low = 0;
  let high = rows.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    const row = rows[mid];
    if (row && row.top + row.height <= offset) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * Which rows to mount: those in the viewport (plus overscan), every root and group row (few, and the
 * test hooks and screen readers need the structure), and the keyboard-active row.
 */
export function visibleRowIndexes(model: TreeModel, scrollTop: number, viewport: number, active: number): number[] {
  const { rows } = model;
  // Small trees are mounted whole: cheap, and every row stays reachable by find-in-page and tests.
  if (rows.length <= WINDOWING_THRESHOLD) return rows.map((_, index) => index);
  const overscan = 240;
  const first = rowIndexAt(rows, Math.max(0, scrollTop - overscan));
  const limit = scrollTop + viewport + overscan;
  const picked = new Set<number>();
  for (let i = first; i < rows.length; i += 1) {
    const row = rows[i];
    if (!row || row.top > limit) break;
    picked.add(i);
  }
  for (const index of model.structural) picked.add(index);
  if (active >= 0 && active < rows.length) picked.add(active);
  return [...picked].sort((a, b) => a - b);
}

/**
 * The fold state with the opened file's root and kind group unfolded, so a file opened from anywhere (Rollouts, a
 * pointer, search) is revealed in the tree; the same set when it already shows. Keys are toggles against each
 * row's default (big groups start folded).
 */
export function revealToggles(
  toggled: ReadonlySet<string>,
  version: MemoryVersion,
  file: FileEntry,
  groupSize: number,
): ReadonlySet<string> {
  const root = rootKey(version);
  const group = groupKey(version, file.kind);
  const groupFoldedByDefault = groupSize > FOLD_BY_DEFAULT_ABOVE;
  const groupOpen = groupFoldedByDefault ? toggled.has(group) : !toggled.has(group);
  if (!toggled.has(root) && groupOpen) return toggled;
  const next = new Set(toggled);
  next.delete(root);
  if (groupFoldedByDefault) next.add(group);
  else next.delete(group);
  return next;
}
