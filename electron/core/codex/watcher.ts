// Turns external changes in a Codex home (Codex rewriting memory files) into debounced contract events.
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { EventEnvelope } from '../../../shared/contract';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { CONFIG_FILE, ROOT_DIRS, isBaselineDirName, isBaselinePath } from './constants';
import { watchTrees } from './home-watch';
import { runTask } from '../runtime/pool';
import { stampOf, type Stamp } from './watch-stamps';

export interface Disposable {
  dispose(): void;
}

const DEBOUNCE_MS = 150;

const sameStamp = (a: Stamp, b: Stamp) => a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;

/**
 * Linux reports an attribute change (a hard link made or removed, chmod, touch of ctime) like a write. The staging of
 * a consolidation hard-links 4,096 rollout summaries, and removing it unlinks them: without this, each run would
 * announce every summary as changed, and every view would refetch. A file whose stamp did not move is left out.
 */
function createStampFilter(home: HomeInfo) {
  const stamps = new Map<string, Stamp>();
  const key = (version: MemoryVersion, rel: string) => `${version}\0${rel}`;
  /**
   * Every file's stamp as the watch starts (on the worker pool), so the first attribute change is recognised too. A
   * file modified around then gets none: its write may be the very event still on its way, which must not be taken
   * for an unmoved stamp.
   */
  const roots = home.roots.filter((r) => r.exists && !r.isSymlink).map((r) => ({ version: r.version, path: r.path }));
  const baseline = runTask('watch-stamps', { roots, modifiedBefore: Date.now() - 2_000 })
    .then((found) => {
      for (const [version, rel, stamp] of found) stamps.set(key(version, rel), stamp);
    })
    .catch(() => undefined); // Without starting stamps every event is passed on: more refetches, nothing missed.
  /** The paths whose content may have changed (anything not a regular file with an unmoved stamp). */
  return async (version: MemoryVersion, paths: readonly string[]): Promise<string[]> => {
    await baseline;
    const root = home.roots.find((r) => r.version === version)?.path;
    if (!root) return [...paths];
    const kept: string[] = [];
    await Promise.all(
      paths.map(async (rel) => {
        const stamp = await stampOf(join(root, rel));
        const previous = stamps.get(key(version, rel));
        if (stamp) stamps.set(key(version, rel), stamp);
        else stamps.delete(key(version, rel));
        if (!(stamp && previous && sameStamp(stamp, previous))) kept.push(rel);
      }),
    );
    return kept.sort();
  };
}

type OnChange = (file: string) => void;

/** The home folder's own watch (not recursive): roots appearing or vanishing, config.toml. */
function tryWatch(watchers: FSWatcher[], path: string, onChange: OnChange): void {
  try {
    const watcher = watch(path, { persistent: false }, (_type, file) => onChange(file ? file.toString().split('\\').join('/') : ''));
    watcher.on('error', () => watcher.close()); // The home vanished: lists still refresh on demand.
    watchers.push(watcher);
  } catch {
    // A missing or unwatchable folder is not an error for the app: lists still refresh on demand.
  }
}

/** Watches each present root (every folder) and the home folder itself; emits `workspace.changed` / `home.changed`. */
export function watchHome(home: HomeInfo, emit: (event: EventEnvelope) => void): Disposable {
  const watchers: FSWatcher[] = [];
  const pending = new Map<MemoryVersion, Set<string>>();
  let homeChanged = false;
  let timer: NodeJS.Timeout | undefined;
  let disposed = false;
  const changed = createStampFilter(home);
  // Flushes run one after another (each awaits stats), so events keep their order.
  let flushing: Promise<void> = Promise.resolve();
  const flush = () => {
    timer = undefined;
    const batch = [...pending].map(([version, paths]) => [version, [...paths]] as const);
    pending.clear();
    const homeWasChanged = homeChanged;
    homeChanged = false;
    flushing = flushing
      .then(async () => {
        for (const [version, paths] of batch) {
          // No paths means "something changed, ask again": it is passed on as is.
          const kept = paths.length === 0 ? [] : await changed(version, paths);
          if (!disposed && (paths.length === 0 || kept.length > 0)) emit({ event: 'workspace.changed', payload: { version, paths: kept } });
        }
        if (!disposed && homeWasChanged) emit({ event: 'home.changed', payload: { codexHome: home.codexHome } });
      })
      .catch(() => undefined);
  };
  const schedule = () => {
    timer ??= setTimeout(flush, DEBOUNCE_MS);
  };
  // The roots' folders, through the one tree watch the keeper uses too (codex/home-watch.ts), minus each `.git/`.
  const roots = home.roots.filter((r) => r.exists && !r.isSymlink);
  const trees =
    roots.length === 0
      ? null
      : watchTrees(
          roots.map((r) => ({ path: r.path, follow: false })),
          {
            recursiveOffLinux: true,
            skipFolder: (path) => roots.some((r) => dirname(path) === r.path && isBaselineDirName(basename(path))),
            onEvent: (dir, name) => {
              const root = roots.find((r) => dir === r.path || dir.startsWith(r.path + sep));
              if (!root) return;
              const inDir = relative(root.path, dir).split(sep).join('/');
              const file = [inDir, name].filter((part) => part !== '').join('/');
              if (isBaselinePath(file)) return;
              let set = pending.get(root.version);
              if (!set) pending.set(root.version, (set = new Set()));
              if (file) set.add(file);
              schedule();
            },
          },
        );
  const watched = new Set<string>([ROOT_DIRS.v1, ROOT_DIRS.v2, CONFIG_FILE]);
  tryWatch(watchers, home.codexHome, (file) => {
    if (watched.has(basename(file))) {
      homeChanged = true;
      schedule();
    }
  });
  return {
    dispose() {
      disposed = true;
      if (timer) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
      trees?.dispose();
    },
  };
}
