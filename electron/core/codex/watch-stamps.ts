// The app watcher's starting stamps (codex/watcher.ts), taken on the worker pool: every file of the watched roots
// stat'ed once. On a heavy home that is 8,000 lstats and paths, which held the main loop ~100 ms at a time at start.
import { lstat, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { MemoryVersion } from '../../../shared/domain';
import { isBaselinePath } from './constants';

/** What a change to a file's content moves: its modification time, its size, or (an atomic replace) its inode. */
export interface Stamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

export interface WatchStampsInput {
  roots: { version: MemoryVersion; path: string }[];
  /** Files modified at or after this (ms since the epoch) get no stamp: their write may be an event on its way. */
  modifiedBefore: number;
}

/** Each root's stamped files: [version, relative path, stamp]. */
export type WatchStamps = [MemoryVersion, string, Stamp][];

const STAT_BATCH = 128;

export async function stampOf(path: string): Promise<Stamp | null> {
  const info = await lstat(path).catch(() => null);
  return info?.isFile() ? { mtimeMs: info.mtimeMs, size: info.size, ino: info.ino } : null;
}

export async function watchStampsTask(input: WatchStampsInput): Promise<WatchStamps> {
  const out: WatchStamps = [];
  for (const root of input.roots) {
    const entries = await readdir(root.path, { recursive: true, withFileTypes: true }).catch(() => []);
    const files = entries
      .filter((e) => e.isFile())
      .map((e) => relative(root.path, join(e.parentPath, e.name)).split(sep).join('/'))
      .filter((rel) => !isBaselinePath(rel));
    for (let i = 0; i < files.length; i += STAT_BATCH) {
      await Promise.all(
        files.slice(i, i + STAT_BATCH).map(async (rel) => {
          const stamp = await stampOf(join(root.path, rel));
          if (stamp && stamp.mtimeMs < input.modifiedBefore) out.push([root.version, rel, stamp]);
        }),
      );
    }
  }
  return out;
}
