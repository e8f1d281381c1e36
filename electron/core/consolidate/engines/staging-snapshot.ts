// Before/after listings of a staging folder: which files an external agent wrote or removed, and any symlinks.
import { lstat, readdir, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isBaselineDirName } from '../../codex/constants';

export interface SnapshotEntry {
  size: number;
  mtimeMs: number;
  kind: 'file' | 'symlink' | 'other';
}

/** Root-relative paths (with `/`) of everything below the root except `.git`; folders are walked, not listed. */
export type StagingSnapshot = Map<string, SnapshotEntry>;

const MAX_ENTRIES = 50_000;

export async function snapshotStaging(root: string): Promise<StagingSnapshot> {
  const snapshot: StagingSnapshot = new Map();
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (snapshot.size >= MAX_ENTRIES) return;
      if (prefix === '' && isBaselineDirName(entry.name)) continue;
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      const abs = join(dir, entry.name);
      if (entry.isDirectory()) {
        await walk(abs, rel);
        continue;
      }
      const info = await lstat(abs).catch(() => null);
      if (!info) continue;
      const kind = info.isSymbolicLink() ? 'symlink' : info.isFile() ? 'file' : 'other';
      snapshot.set(rel, { size: info.size, mtimeMs: info.mtimeMs, kind });
    }
  };
  await walk(root, '');
  return snapshot;
}

export interface SnapshotDiff {
  written: string[];
  removed: string[];
  /** Symlinks present after the run that were not there before. */
  newSymlinks: string[];
  /** Anything neither a file nor a symlink (fifo, socket, device) that appeared. */
  newOther: string[];
}

export function diffSnapshots(before: StagingSnapshot, after: StagingSnapshot): SnapshotDiff {
  const diff: SnapshotDiff = { written: [], removed: [], newSymlinks: [], newOther: [] };
  for (const [path, entry] of after) {
    const old = before.get(path);
    if (entry.kind === 'symlink' && old?.kind !== 'symlink') diff.newSymlinks.push(path);
    else if (entry.kind === 'other' && old?.kind !== 'other') diff.newOther.push(path);
    else if (entry.kind === 'file' && (!old || old.kind !== 'file' || old.size !== entry.size || old.mtimeMs !== entry.mtimeMs))
      diff.written.push(path);
  }
  for (const path of before.keys()) if (!after.has(path)) diff.removed.push(path);
  for (const list of Object.values(diff)) list.sort();
  return diff;
}

/** Splits reported paths (absolute, or relative to the root) into root-relative paths inside and paths outside. */
export async function classifyReportedPaths(root: string, paths: readonly string[]): Promise<{ inside: string[]; outside: string[] }> {
  const roots = [resolve(root)];
  const real = await realpath(root).catch(() => null);
  if (real && real !== roots[0]) roots.push(real);
  const inside = new Set<string>();
  const outside = new Set<string>();
  for (const path of paths) {
    const abs = isAbsolute(path) ? resolve(path) : resolve(root, path);
    const rel = roots.map((r) => relative(r, abs)).find((r) => r !== '' && !r.startsWith('..' + sep) && r !== '..' && !isAbsolute(r));
    if (rel === undefined) outside.add(path);
    else inside.add(rel.split(sep).join('/'));
  }
  return { inside: [...inside].sort(), outside: [...outside].sort() };
}
