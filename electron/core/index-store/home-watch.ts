// What lets `memory-studio keep` answer from the index without the stat pass: one inotify watch per folder of each
// memory root (`.git/` included, since its symlinks are part of the answers), of sessions/ and archived_sessions/, and
// of the home folder itself, with every event counted. A refresh records the count when it starts; while the count has
// not moved since, and the watch vouches for every folder, nothing under those trees changed.
//
// Why a count is enough on Linux: inotify queues an event inside the very system call that changed the file, so a
// change made before a CLI command started is in the queue before that command's request reaches the keeper, and one
// pass of the event loop after the request reads it. A queue overflow drops events, but only after 16,384 of them
// were queued, and those are still read and counted. Elsewhere (FSEvents, ReadDirectoryChangesW report later and
// coalesce) the watch never vouches, and every answer starts with the stat pass.
import { watch, type FSWatcher } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { ARCHIVED_SESSIONS_DIR, CONFIG_FILE, ROOT_DIRS, SESSIONS_DIR } from '../codex/constants';

export interface HomeWatch {
  /** Events seen so far (a counter that only grows). */
  changes(): number;
  /** True when every folder is watched, none was lost and none is being added: an unmoved count then means no change. */
  vouches(): boolean;
  /** Why the watch cannot vouch (a folder it could not watch, the platform), or null. */
  problem(): string | null;
  /** Folders watched. */
  folders(): number;
  /** Settles once every folder that existed at the start is watched. */
  ready: Promise<void>;
  dispose(): void;
}

/** The names in the home folder whose change matters: the two roots, the sessions folders, config.toml. */
const TREES = [ROOT_DIRS.v1, ROOT_DIRS.v2, SESSIONS_DIR, ARCHIVED_SESSIONS_DIR];
const HOME_NAMES = new Set<string>([...TREES, CONFIG_FILE]);

interface Watched {
  watcher: FSWatcher;
  ino: number;
}

/** Creates the watch and starts adding every folder; `onChange` is called on each counted event. */
export function watchHomeTree(codexHome: string, onChange: () => void = () => undefined): HomeWatch {
  const tree = new TreeWatch(codexHome, onChange);
  const ready = tree.start();
  return {
    changes: () => tree.count,
    vouches: () => tree.started && tree.adding === 0 && tree.lost === null && !tree.disposed,
    problem: () => tree.lost,
    folders: () => tree.watched.size,
    ready,
    dispose: () => tree.dispose(),
  };
}

class TreeWatch {
  readonly watched = new Map<string, Watched>();
  count = 0;
  adding = 0;
  lost: string | null = null;
  disposed = false;
  started = false;

  constructor(
    private readonly codexHome: string,
    private readonly onChange: () => void,
  ) {
    if (process.platform !== 'linux')
      this.lost = `on ${process.platform} file events arrive late, so every answer starts with the stat pass`;
  }

  async start(): Promise<void> {
    if (this.lost === null) await this.track(this.codexHome, false);
    this.started = true;
  }

  dispose(): void {
    this.disposed = true;
    for (const entry of this.watched.values()) entry.watcher.close();
    this.watched.clear();
  }

  private bump(): void {
    this.count++;
    if (!this.disposed) this.onChange();
  }

  private loseWith(why: string): void {
    this.lost ??= why;
    this.bump();
  }

  /** Forgets the watches of `dir` and of everything under it (the folder was replaced or removed). */
  private forget(dir: string): void {
    for (const [path, entry] of this.watched)
      if (path === dir || path.startsWith(dir + sep)) {
        entry.watcher.close();
        this.watched.delete(path);
      }
  }

  private onEvent(dir: string, type: string, name: string | Buffer | null): void {
    if (this.disposed) return;
    const file = name === null ? null : name.toString();
    if (dir === this.codexHome && file !== null && !HOME_NAMES.has(file)) return; // Codex's DBs and logs: not the index's
    if (file === null) return this.loseWith(`an event in ${dir} came without a file name`);
    this.bump();
    // A name that appeared or was replaced may be a folder: watch it (again), with what it holds.
    if (type === 'rename' && (dir !== this.codexHome || TREES.includes(file))) void this.track(join(dir, file), true);
  }

  private watchOne(dir: string): FSWatcher | null {
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: false }, (type, name) => this.onEvent(dir, type, name));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      this.loseWith(
        code === 'ENOSPC'
          ? `the system's limit of inotify watches is reached (raise fs.inotify.max_user_watches) at ${dir}`
          : `${dir} cannot be watched (${code ?? String(error)})`,
      );
      return null;
    }
    watcher.on('error', (error: NodeJS.ErrnoException) => {
      watcher.close();
      // A watched folder that was removed ends its watch; the parent's event has told already.
      if (this.watched.get(dir)?.watcher === watcher) this.watched.delete(dir);
      if (error.code !== 'ENOENT' && error.code !== 'EPERM') this.loseWith(`the watch of ${dir} failed (${error.code ?? error.message})`);
    });
    return watcher;
  }

  private async add(dir: string, replace: boolean): Promise<void> {
    const info = await lstat(dir).catch(() => null);
    if (this.disposed) return;
    const held = this.watched.get(dir);
    if (!info?.isDirectory()) {
      if (held && replace) this.forget(dir);
      return;
    }
    if (held && held.ino === info.ino) return;
    if (held) this.forget(dir);
    const watcher = this.watchOne(dir);
    if (!watcher) return;
    this.watched.set(dir, { watcher, ino: info.ino });
    if (dir === this.codexHome) {
      for (const tree of TREES) await this.add(join(dir, tree), false);
      return;
    }
    // Its subfolders could not be watched: the watch cannot vouch until it is made again (the keeper does that).
    const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') this.loseWith(`${dir} cannot be read (${error.code ?? error.message})`);
      return [];
    });
    for (const entry of entries) if (entry.isDirectory()) await this.add(join(dir, entry.name), false);
  }

  /** Adds a folder; while any add is under way the watch does not vouch, and each one that ends counts as a change. */
  private async track(dir: string, replace: boolean): Promise<void> {
    this.adding++;
    try {
      await this.add(dir, replace);
    } catch (error) {
      this.loseWith(`watching ${dir} failed (${String(error)})`);
    } finally {
      this.adding--;
      // Files created in a new folder before its watch existed have had no event: the count moves so a refresh looks.
      if (this.started) this.bump();
    }
  }
}
