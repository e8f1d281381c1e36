// The stat-only pass's system calls, made ahead on a pool worker while the CLI's main thread is still loading its
// modules, and answered from memory when the walk asks for them. Anything the snapshot did not record (a folder it
// could not read, a path outside it) is asked of the file system as before, so the walk's answer never depends on it.
import { lstatSync, readdirSync, type Dirent, type Stats } from 'node:fs';

/** What the walks read of a folder entry. */
export type DirentLike = Pick<Dirent, 'name' | 'isFile' | 'isDirectory' | 'isSymbolicLink'>;
/** What the walks read of a file's lstat. */
export type StatsLike = Pick<
  Stats,
  'size' | 'mtimeMs' | 'ino' | 'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'
>;

/** The two calls the stat-only walks make. */
export interface WalkFs {
  /** Throws as readdirSync does. */
  readdir(dir: string): DirentLike[];
  /** Undefined when the path does not exist (throwIfNoEntry: false). */
  lstat(path: string): StatsLike | undefined;
}

export const LIVE_FS: WalkFs = {
  readdir: (dir) => readdirSync(dir, { withFileTypes: true }),
  lstat: (path) => lstatSync(path, { throwIfNoEntry: false }),
};

/** One tree to record: `path` and, below it, folders down to `maxDepth` (0: its own entries only), `skip` left out at the top. */
export interface SnapshotTop {
  path: string;
  maxDepth: number;
  skip?: readonly string[];
}

/** Plain arrays, so the snapshot crosses from the worker by structured clone in a few milliseconds. */
export interface StatSnapshot {
  /** Per folder read: its path, its entries' names and their types (see TYPE). */
  dirs: Array<[string, string[], number[]]>;
  paths: string[];
  /** Per path: size, mtimeMs, ino, mode. */
  stats: number[];
}

const TYPE = { other: 0, file: 1, dir: 2, symlink: 3 } as const;
const typeOf = (e: Dirent) => (e.isFile() ? TYPE.file : e.isDirectory() ? TYPE.dir : e.isSymbolicLink() ? TYPE.symlink : TYPE.other);

/** The pool task: reads the folders and lstats every entry that is not a folder, as the walks will. */
export function takeStatSnapshot(input: { tops: SnapshotTop[] }): StatSnapshot {
  const out: StatSnapshot = { dirs: [], paths: [], stats: [] };
  const record = (path: string) => {
    const s = lstatSync(path, { throwIfNoEntry: false });
    if (s) {
      out.paths.push(path);
      out.stats.push(s.size, s.mtimeMs, s.ino, s.mode);
    }
    return s;
  };
  for (const top of input.tops) {
    // A top that is a symlink is not followed: the walk refuses it, or reads it itself, as it would without this.
    if (!record(top.path)?.isDirectory()) continue;
    const pending: Array<[string, number]> = [[top.path, 0]];
    for (let next = pending.shift(); next; next = pending.shift()) {
      const [dir, depth] = next;
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue; // not recorded: the walk reads it itself and reports the error in its own words
      }
      out.dirs.push([dir, entries.map((e) => e.name), entries.map(typeOf)]);
      for (const entry of entries) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory()) {
          if (depth < top.maxDepth && !(depth === 0 && top.skip?.includes(entry.name))) pending.push([path, depth + 1]);
        } else record(path);
      }
    }
  }
  return out;
}

// Methods on the prototype, not arrow fields: the walk makes one of these per file, thousands per command.
class SnapshotDirent implements DirentLike {
  constructor(
    readonly name: string,
    private readonly type: number,
  ) {}
  isFile(): boolean {
    return this.type === TYPE.file;
  }
  isDirectory(): boolean {
    return this.type === TYPE.dir;
  }
  isSymbolicLink(): boolean {
    return this.type === TYPE.symlink;
  }
}

// File type bits of st_mode (POSIX), as fs.Stats reads them.
const S_IFMT = 0o170000;
const kind = (mode: number, bits: number) => (mode & S_IFMT) === bits;

class SnapshotStats implements StatsLike {
  constructor(
    readonly size: number,
    readonly mtimeMs: number,
    readonly ino: number,
    private readonly mode: number,
  ) {}
  isFile(): boolean {
    return kind(this.mode, 0o100000);
  }
  isDirectory(): boolean {
    return kind(this.mode, 0o040000);
  }
  isSymbolicLink(): boolean {
    return kind(this.mode, 0o120000);
  }
  isFIFO(): boolean {
    return kind(this.mode, 0o010000);
  }
  isSocket(): boolean {
    return kind(this.mode, 0o140000);
  }
  isCharacterDevice(): boolean {
    return kind(this.mode, 0o020000);
  }
  isBlockDevice(): boolean {
    return kind(this.mode, 0o060000);
  }
}

/** A WalkFs answering from `snapshot` first (each answer once: a second ask is a fresh look), then from the disk. */
export function snapshotFs(snapshot: StatSnapshot, live: WalkFs = LIVE_FS): WalkFs & { answered: () => number } {
  const dirs = new Map<string, [string[], number[]]>(snapshot.dirs.map(([dir, names, types]) => [dir, [names, types]]));
  const stats = new Map<string, number>(snapshot.paths.map((path, i) => [path, i * 4]));
  let answered = 0;
  return {
    readdir(dir) {
      const hit = dirs.get(dir);
      if (!hit) return live.readdir(dir);
      dirs.delete(dir);
      answered++;
      return hit[0].map((name, i) => new SnapshotDirent(name, hit[1][i] as number));
    },
    lstat(path) {
      const at = stats.get(path);
      if (at === undefined) return live.lstat(path);
      stats.delete(path);
      answered++;
      const s = snapshot.stats;
      return new SnapshotStats(s[at] as number, s[at + 1] as number, s[at + 2] as number, s[at + 3] as number);
    },
    answered: () => answered,
  };
}
