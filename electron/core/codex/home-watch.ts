// The one watch of a Codex home's trees, for the app (codex/watcher.ts: which files changed) and the keeper (below).
//
// What lets `memory-studio keep` answer from the index without the stat pass: one inotify watch per folder of each
// memory root (`.git/` included, since its symlinks are part of the answers) and of sessions/ and archived_sessions/,
// with every event counted. A refresh records the count when it starts; while the count has not moved since, the
// watch vouches for every folder and `intact()` finds the four trees where the watch has them, nothing under them
// changed. The home folder itself is not watched (Codex's DBs and logs change there all the time): `intact()` stats
// the trees instead, and the keeper compares config.toml through the home's reading.
//
// Why a count is enough on Linux: inotify queues an event inside the very system call that changed the file, so a
// change made before a CLI command started is in the queue before that command's request reaches the keeper, and one
// pass of the event loop after the request reads it. A queue overflow drops events (libuv says nothing), but only
// once 16,384 are queued, and those are still read and counted: the keeper makes the watch again after that many.
// Elsewhere (FSEvents, ReadDirectoryChangesW report later and coalesce), and on a network or FUSE filesystem (no
// events for another machine's writes), the watch never vouches, and every answer starts with the stat pass; off Linux
// the app's watch has each tree watched recursively by the platform, so it still hears of changes.
//
// Linux has no recursive inotify: Node 20 emulates `recursive` by walking the tree synchronously and watching every
// file, which stalled the main loop ~400 ms per heavy root. Here each folder gets one watch (rollout_summaries/ is one
// folder however many summaries it holds), the walk is asynchronous, and a folder created later is added when seen.
import { lstatSync, statfsSync, statSync, watch, type FSWatcher } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { basename, join, sep } from 'node:path';
import { ARCHIVED_SESSIONS_DIR, ROOT_DIRS, SESSIONS_DIR } from './constants';

export interface HomeWatch {
  /** Events seen so far (a counter that only grows). */
  changes(): number;
  /** True when every folder is watched, none was lost and none is being added: an unmoved count then means no change. */
  vouches(): boolean;
  /** The four trees are the folders the watch has (none moved, replaced, created or removed without its knowing). */
  intact(): boolean;
  /** Why the watch cannot vouch (a folder it could not watch, the platform, the filesystem), or null. */
  problem(): string | null;
  /** Folders watched. */
  folders(): number;
  /** Settles once every folder that existed at the start is watched. */
  ready: Promise<void>;
  dispose(): void;
}

/** Events that may have overflowed inotify's queue (16,384 by default): past this many, the watch is made again. */
export const OVERFLOW_SUSPECT = 10_000;

/** Filesystems whose every change, local or not, reaches inotify (statfs magic numbers). */
const LOCAL_FILESYSTEMS = new Set([
  0xef53, // ext2, ext3, ext4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x794c7630, // overlayfs
  0xf2f52010, // f2fs
  0x2fc12fc1, // zfs
  0xca451a4e, // bcachefs
  0x52654973, // reiserfs
  0x3153464a, // jfs
  0x4d44, // vfat
  0x2011bab0, // exfat
  0x7366746e, // ntfs3
  0xf15f, // ecryptfs
]);

export interface WatchedTree {
  path: string;
  /** Sessions folders are read through a symlink (the walk's readdir follows it); a symlinked root is refused. */
  follow: boolean;
}

export interface TreeWatchOptions {
  /** Called on each counted change (an event, a folder added, the watch lost). */
  onChange?: () => void;
  /** Called on each file event: the folder it came from and the name in it ('' when the platform names none). */
  onEvent?: (dir: string, name: string) => void;
  /** Folders neither watched nor walked (the app leaves a root's `.git/` baseline alone; the keeper watches it). */
  skipFolder?: (path: string) => boolean;
  /**
   * Off Linux, watch each tree recursively through the platform (the app: it hears changes there too). The keeper
   * leaves it off: such a watch never vouches, so its events would only start stat passes while Codex writes.
   */
  recursiveOffLinux?: boolean;
}

interface Watched {
  watcher: FSWatcher;
  ino: number;
}

/** The keeper's watch: both roots and both sessions folders; `onChange` is called on each counted event. */
export function watchHomeTree(codexHome: string, onChange: () => void = () => undefined): HomeWatch {
  return watchTrees(
    [
      { path: join(codexHome, ROOT_DIRS.v1), follow: false },
      { path: join(codexHome, ROOT_DIRS.v2), follow: false },
      { path: join(codexHome, SESSIONS_DIR), follow: true },
      { path: join(codexHome, ARCHIVED_SESSIONS_DIR), follow: true },
    ],
    { onChange },
  );
}

/** Creates the watch of `trees` and starts adding every folder. */
export function watchTrees(trees: readonly WatchedTree[], options: TreeWatchOptions = {}): HomeWatch {
  const tree = new TreeWatch(trees, options);
  const ready = tree.start();
  return {
    changes: () => tree.count,
    vouches: () => tree.started && tree.adding === 0 && tree.lost === null && !tree.disposed,
    intact: () => tree.intact(),
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
    private readonly trees: readonly WatchedTree[],
    private readonly options: TreeWatchOptions,
  ) {
    if (process.platform !== 'linux')
      this.lost = `on ${process.platform} file events arrive late, so every answer starts with the stat pass`;
  }

  async start(): Promise<void> {
    if (process.platform === 'linux')
      // Every tree is watched even after one is found untrustworthy: the watch then does not vouch, but `intact()`
      // still holds, so the keeper does not make it again on every request.
      for (const tree of this.trees) {
        this.checkFilesystem(tree.path);
        await this.track(tree.path, false);
      }
    else if (this.options.recursiveOffLinux) for (const tree of this.trees) this.watchRecursively(tree.path);
    this.started = true;
  }

  /** FSEvents and ReadDirectoryChangesW watch a whole tree at once (never vouching: they report late and coalesce). */
  private watchRecursively(dir: string): void {
    const info = statSync(dir, { throwIfNoEntry: false });
    if (!info?.isDirectory()) return;
    try {
      const watcher = watch(dir, { recursive: true, persistent: false }, (_type, name) => {
        if (this.disposed) return;
        const rel = name === null ? '' : name.toString().split('\\').join('/');
        const top = rel.split('/')[0] ?? '';
        if (top !== '' && this.options.skipFolder?.(join(dir, top))) return;
        this.bump();
        this.options.onEvent?.(dir, rel);
      });
      watcher.on('error', () => watcher.close()); // the tree went away; the home's own watch says so
      this.watched.set(dir, { watcher, ino: info.ino });
    } catch {
      // Not there, or not watchable: lists still refresh on demand.
    }
  }

  private checkFilesystem(path: string): void {
    let type: number;
    try {
      type = statfsSync(path).type;
    } catch {
      return; // Not there (yet): checked when the keeper makes the watch again after it appears.
    }
    if (!LOCAL_FILESYSTEMS.has(type))
      this.loseWith(`${path} is on a filesystem (type 0x${type.toString(16)}) whose changes from elsewhere send no file events`);
  }

  private top(dir: string): WatchedTree | undefined {
    return this.trees.find((t) => t.path === dir);
  }

  intact(): boolean {
    for (const tree of this.trees) {
      const info = (tree.follow ? statSync : lstatSync)(tree.path, { throwIfNoEntry: false });
      const held = this.watched.get(tree.path);
      const isDir = info?.isDirectory() === true;
      if (isDir !== (held !== undefined) || (held && held.ino !== info?.ino)) return false;
    }
    return true;
  }

  dispose(): void {
    this.disposed = true;
    for (const entry of this.watched.values()) entry.watcher.close();
    this.watched.clear();
  }

  private bump(): void {
    this.count++;
    if (!this.disposed) this.options.onChange?.();
  }

  private loseWith(why: string): void {
    this.lost ??= why;
    if (this.started) this.bump(); // while starting, the keeper's first refresh comes anyway
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
    if (file === null) {
      this.options.onEvent?.(dir, '');
      return this.loseWith(`an event in ${dir} came without a file name`);
    }
    this.bump();
    this.options.onEvent?.(dir, file);
    // A tree's own folder removed or moved (libuv names the folder itself): nothing above it is watched, so look again.
    if (file === basename(dir) && this.top(dir)) return void this.track(dir, true);
    // A name that appeared or was replaced may be a folder: watch it (again), with what it holds.
    if (type === 'rename') void this.track(join(dir, file), true);
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
    const info = await (this.top(dir)?.follow ? stat : lstat)(dir).catch(() => null);
    if (this.disposed) return;
    // A folder removed and made again can have the same inode number (ext4 reuses them): a rename always re-watches.
    if (replace) this.forget(dir);
    else if (this.watched.has(dir)) return;
    if (!info?.isDirectory() || this.options.skipFolder?.(dir)) return;
    const watcher = this.watchOne(dir);
    if (!watcher) return;
    this.watched.set(dir, { watcher, ino: info.ino });
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
