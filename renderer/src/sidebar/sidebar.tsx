// The left column: which Codex home this is, the filter, per-root list errors, and the windowed file tree.
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { FileList, HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { StudioError } from '../../../shared/result';
import { LeaveDemoButton } from '../common/demo-exit';
import { ErrorPanel } from '../common/error-panel';
import { useGlobalKeys } from '../keymap/use-keys';
import { FileTree, type FileTreeHandle } from './file-tree';
import { FilterBox } from './filter-box';
import { buildTreeModel, fileKey, groupByKind, revealToggles, type KindGroups, type RootSection, type TreeRow } from './tree-model';

export interface SidebarSection extends RootSection {
  error: StudioError | null;
  retry: () => void;
  retrying: boolean;
}

export interface SidebarProps {
  home: HomeInfo | undefined;
  homeFailed: boolean;
  sections: readonly SidebarSection[];
  openedKey: string | null;
  /** Counts openings: each one (from anywhere) reveals the opened file again. */
  openedSeq?: number | null;
  onOpen: (version: MemoryVersion, path: string) => void;
}

// Grouping 4,096 files is cheap but not free; do it once per fetched list.
const groupCache = new WeakMap<FileList, KindGroups>();
function groupsOf(list: FileList | undefined): KindGroups {
  if (!list) return [];
  let groups = groupCache.get(list);
  if (!groups) {
    groups = groupByKind(list.files);
    groupCache.set(list, groups);
  }
  return groups;
}

function HomeHeader({ home, failed }: { home: HomeInfo | undefined; failed: boolean }) {
  return (
    <header className="sidebar-header">
      <div className="sidebar-title">
        <span className="eyebrow">Codex home</span>
        {home?.isDemo ? (
          <span className="badge badge-demo" data-testid="demo-badge" title="A generated home with sample memories">
            Demo
          </span>
        ) : null}
      </div>
      <p className="home-path" data-testid="home-path" title={home?.codexHome}>
        {/* The inner span keeps the path left-to-right while the box clips from the left (rtl): the end matters most. */}
        {home ? (
          <span className="home-path-text">{home.codexHome}</span>
        ) : failed ? (
          'Unknown'
        ) : (
          <span className="skeleton skeleton-text" aria-label="Loading" />
        )}
      </p>
      {home?.isDemo && home.returnHome !== null ? (
        <div className="sidebar-demo">
          <LeaveDemoButton home={home} testId="leave-demo-sidebar" compact />
        </div>
      ) : null}
    </header>
  );
}

/** Unfolds the opened file's root and group once per opening, wherever it was opened from (the tree then scrolls to it). */
function useUnfoldOpened(
  opened: { key: string | null; seq: number | null },
  sections: readonly SidebarSection[],
  setToggled: (update: (previous: ReadonlySet<string>) => ReadonlySet<string>) => void,
): void {
  const openedKey = opened.key;
  // Later folding by hand stays as the person left it: each opening is revealed once.
  const revealed = useRef<string | null>(null);
  useEffect(() => {
    const token = `${opened.seq ?? ''}|${openedKey ?? ''}`;
    if (!openedKey || revealed.current === token) return;
    for (const section of sections) {
      const version = section.root.version;
      const file = section.list?.files.find((f) => fileKey(version, f.path) === openedKey);
      if (!file || !section.list) continue;
      const groupSize = groupsOf(section.list).find((g) => g.kind === file.kind)?.files.length ?? 0;
      setToggled((previous) => revealToggles(previous, version, file, groupSize));
      revealed.current = token;
      return;
    }
  }, [openedKey, opened.seq, sections, setToggled]);
}

/** The path of a file row's key (`file:v1:notes/a.md`), or null for another key. */
function pathOfKey(key: string | null): string | null {
  const match = key ? /^file:[^:]+:(.*)$/.exec(key) : null;
  return match?.[1] ?? null;
}

/** A file opened from elsewhere that the filter hides clears the filter, so the tree can show where it is. */
function useClearHidingFilter(opened: { key: string | null; seq: number | null }, filter: string, clear: () => void): void {
  const latest = useRef({ filter, clear });
  latest.current = { filter, clear };
  useEffect(() => {
    const path = pathOfKey(opened.key);
    const needle = latest.current.filter.trim().toLowerCase();
    if (path !== null && needle && !path.toLowerCase().includes(needle)) latest.current.clear();
  }, [opened.key, opened.seq]);
}

/** The filter box's text, the folding (kept apart while filtering) and the tree model they make. */
function useFilteredTree(sections: SidebarProps['sections'], opened: { key: string | null; seq: number | null }) {
  const [filter, setFilter] = useState('');
  const deferredFilter = useDeferredValue(filter.trim().toLowerCase());
  const [toggled, setToggled] = useState<ReadonlySet<string>>(() => new Set());
  // Folding done while filtering is about that search only; it is dropped with the filter.
  const [filterToggled, setFilterToggled] = useState<ReadonlySet<string>>(() => new Set());
  const filtering = deferredFilter !== '';
  useUnfoldOpened(opened, sections, setToggled);

  const model = useMemo(
    () =>
      buildTreeModel({
        sections: sections.map((section) => ({ section, groups: groupsOf(section.list) })),
        filter: deferredFilter,
        toggled: filtering ? filterToggled : toggled,
      }),
    [sections, deferredFilter, filtering, filterToggled, toggled],
  );

  const matchCount = useMemo(() => {
    if (!deferredFilter) return null;
    return sections.reduce((sum, s) => sum + (s.list?.files.filter((f) => f.path.toLowerCase().includes(deferredFilter)).length ?? 0), 0);
  }, [sections, deferredFilter]);

  const onToggle = useCallback(
    (row: TreeRow) => {
      const flip = (previous: ReadonlySet<string>) => {
        const next = new Set(previous);
        if (next.has(row.key)) next.delete(row.key);
        else next.add(row.key);
        return next;
      };
      if (filtering) setFilterToggled(flip);
      else setToggled(flip);
    },
    [filtering],
  );

  const onFilterChange = (value: string) => {
    setFilter(value);
    if (!value.trim()) setFilterToggled(new Set());
  };
  useClearHidingFilter(opened, filter, () => onFilterChange(''));
  return { filter, filtering, model, matchCount, onToggle, onFilterChange };
}

export function Sidebar({ home, homeFailed, sections, openedKey, openedSeq = null, onOpen }: SidebarProps) {
  const opened = useMemo(() => ({ key: openedKey, seq: openedSeq }), [openedKey, openedSeq]);
  const { filter, filtering, model, matchCount, onToggle, onFilterChange } = useFilteredTree(sections, opened);
  const filterRef = useRef<HTMLInputElement>(null);
  const treeRef = useRef<FileTreeHandle>(null);

  const focusFilter = useCallback(() => {
    filterRef.current?.focus();
    filterRef.current?.select();
  }, []);
  // `/` only outside text fields (Monaco's input is one), so it can still be typed there; Ctrl/Cmd+P from anywhere.
  useGlobalKeys({ 'filter.focus': focusFilter });

  const onOpenRow = useCallback((row: Extract<TreeRow, { type: 'file' }>) => onOpen(row.version, row.file.path), [onOpen]);

  const openFirstMatch = () => {
    const first = model.rows.find((row) => row.type === 'file');
    if (first?.type === 'file') onOpen(first.version, first.file.path);
  };

  const failed = sections.filter((section) => section.error);
  const hasFiles = sections.some((section) => (section.list?.files.length ?? 0) > 0);

  return (
    <aside className="sidebar" aria-label="Memory files">
      <HomeHeader home={home} failed={homeFailed} />
      <FilterBox
        inputRef={filterRef}
        value={filter}
        onChange={onFilterChange}
        matchCount={matchCount}
        disabled={!hasFiles}
        onArrowDown={() => treeRef.current?.focusFirstFile()}
        onSubmit={openFirstMatch}
      />
      {failed.map((section) =>
        section.error ? (
          <ErrorPanel
            key={section.root.version}
            compact
            title={`Could not list the ${section.root.version} root`}
            error={section.error}
            onRetry={section.retry}
            retrying={section.retrying}
          />
        ) : null,
      )}
      {sections.length > 0 ? (
        <FileTree
          ref={treeRef}
          model={model}
          filtering={filtering}
          openedKey={openedKey}
          openedSeq={openedSeq}
          onOpen={onOpenRow}
          onToggle={onToggle}
        />
      ) : (
        <div className="tree-empty muted">{home ? 'No memory roots to list.' : null}</div>
      )}
    </aside>
  );
}
