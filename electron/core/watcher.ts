// Turns external changes in a Codex home (Codex rewriting memory files) into debounced contract events.
import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { EventEnvelope } from '../../shared/contract';
import type { HomeInfo, MemoryVersion } from '../../shared/domain';
import { BASELINE_DIRS, CONFIG_FILE, ROOT_DIRS, isBaselinePath } from './codex-constants';

export interface Disposable {
  dispose(): void;
}

const DEBOUNCE_MS = 150;

type OnChange = (file: string) => void;

function tryWatch(watchers: FSWatcher[], path: string, recursive: boolean, onChange: OnChange): boolean {
  try {
    const watcher = watch(path, { recursive, persistent: false }, (_type, file) => onChange(file ? file.toString().split('\\').join('/') : ''));
    watcher.on('error', () => watcher.close()); // The folder vanished; the home watcher (or its parent's) reports that.
    watchers.push(watcher);
    return true;
  } catch {
    return false; // A missing or unwatchable folder is not an error for the app: lists still refresh on demand.
  }
}

/**
 * Linux has no recursive inotify: Node 20 emulates `recursive` by walking the tree synchronously and watching every
 * file, which stalled the main loop ~400 ms per heavy root. Here each folder gets one watch (rollout_summaries/ is one
 * folder however many summaries it holds), the walk is asynchronous, and a folder created later is added when seen.
 */
function watchFolders(watchers: FSWatcher[], root: string, onChange: OnChange, closed: () => boolean): void {
  const watched = new Set<string>();
  const add = async (rel: string): Promise<void> => {
    if (closed() || watched.has(rel)) return;
    watched.add(rel);
    const prefix = rel === '' ? '' : `${rel}/`;
    tryWatch(watchers, rel === '' ? root : join(root, rel), false, (name) => {
      const file = name === '' ? rel : `${prefix}${name}`;
      onChange(file);
      if (name !== '' && !watched.has(file) && !isBaselinePath(file)) void addIfFolder(file);
    });
    const entries = await readdir(rel === '' ? root : join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || (rel === '' && BASELINE_DIRS.includes(entry.name))) continue;
      await add(`${prefix}${entry.name}`);
    }
  };
  /** A name that appeared may be a new folder (Codex creating skills/<name>/): watch it and what it holds. */
  const addIfFolder = async (rel: string): Promise<void> => {
    const info = await lstat(join(root, rel)).catch(() => null);
    if (info?.isDirectory()) await add(rel);
  };
  void add('');
}

/** Watches each present root (recursively) and the home folder itself; emits `workspace.changed` / `home.changed`. */
export function watchHome(home: HomeInfo, emit: (event: EventEnvelope) => void): Disposable {
  const watchers: FSWatcher[] = [];
  const pending = new Map<MemoryVersion, Set<string>>();
  let homeChanged = false;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const flush = () => {
    timer = undefined;
    for (const [version, paths] of pending) emit({ event: 'workspace.changed', payload: { version, paths: [...paths].sort() } });
    pending.clear();
    if (homeChanged) emit({ event: 'home.changed', payload: { codexHome: home.codexHome } });
    homeChanged = false;
  };
  const schedule = () => {
    timer ??= setTimeout(flush, DEBOUNCE_MS);
  };
  for (const root of home.roots) {
    if (!root.exists || root.isSymlink) continue;
    const onChange = (file: string) => {
      if (isBaselinePath(file)) return;
      let set = pending.get(root.version);
      if (!set) pending.set(root.version, (set = new Set()));
      if (file) set.add(file);
      schedule();
    };
    if (process.platform === 'linux') watchFolders(watchers, root.path, onChange, () => closed);
    else tryWatch(watchers, root.path, true, onChange);
  }
  const watched = new Set<string>([ROOT_DIRS.v1, ROOT_DIRS.v2, CONFIG_FILE]);
  tryWatch(watchers, home.codexHome, false, (file) => {
    if (watched.has(basename(file))) {
      homeChanged = true;
      schedule();
    }
  });
  return {
    dispose() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
