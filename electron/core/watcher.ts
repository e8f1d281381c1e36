// Turns external changes in a Codex home (Codex rewriting memory files) into debounced contract events.
import { watch, type FSWatcher } from 'node:fs';
import { basename } from 'node:path';
import type { EventEnvelope } from '../../shared/contract';
import type { HomeInfo, MemoryVersion } from '../../shared/domain';
import { CONFIG_FILE, ROOT_DIRS, isBaselinePath } from './codex-constants';

export interface Disposable {
  dispose(): void;
}

const DEBOUNCE_MS = 150;

/** Watches each present root (recursively) and the home folder itself; emits `workspace.changed` / `home.changed`. */
export function watchHome(home: HomeInfo, emit: (event: EventEnvelope) => void): Disposable {
  const watchers: FSWatcher[] = [];
  const pending = new Map<MemoryVersion, Set<string>>();
  let homeChanged = false;
  let timer: NodeJS.Timeout | undefined;
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
  const tryWatch = (path: string, recursive: boolean, onChange: (file: string) => void) => {
    try {
      const watcher = watch(path, { recursive, persistent: false }, (_type, file) => onChange(file ? file.toString().split('\\').join('/') : ''));
      watcher.on('error', () => watcher.close()); // The folder vanished; the home watcher reports that.
      watchers.push(watcher);
    } catch {
      // A missing or unwatchable folder is not an error for the app: lists still refresh on demand.
    }
  };
  for (const root of home.roots) {
    if (!root.exists || root.isSymlink) continue;
    tryWatch(root.path, true, (file) => {
      if (isBaselinePath(file)) return;
      let set = pending.get(root.version);
      if (!set) pending.set(root.version, (set = new Set()));
      if (file) set.add(file);
      schedule();
    });
  }
  const watched = new Set<string>([ROOT_DIRS.v1, ROOT_DIRS.v2, CONFIG_FILE]);
  tryWatch(home.codexHome, false, (file) => {
    if (watched.has(basename(file))) {
      homeChanged = true;
      schedule();
    }
  });
  return {
    dispose() {
      if (timer) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
