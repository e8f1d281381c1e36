// The index's stat-only passes: one synchronous walk per root (files by kind, as listMemoryRoot lists them), the
// sessions folders, and the .git/ folders' mtimes. Synchronous on purpose: it runs in the CLI or on a pool worker.
import { appendAll } from '../platform/append';
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import { join, sep } from 'node:path';
import type { FileList, MemoryVersion } from '../../../shared/domain';
import { ARCHIVED_SESSIONS_DIR, SESSIONS_DIR } from '../codex/constants';
import { addFile, MAX_DEPTH, type SessionListing } from '../sessions/session-files';
import { addFileEntry, checkRootInfo, finishList, missingRoot, sortEntries, unreadableFolder, type WalkState } from '../codex/workspace';

/** What tells a file apart from its earlier self without reading it: size, full-precision mtime and inode. */
export interface Stamp {
  size: number;
  mtimeMs: number;
  ino: number;
}

export interface RootWalk {
  list: FileList;
  stamps: Map<string, Stamp>;
}

/** Lists a memory root exactly as `listMemoryRoot` does (same entries, order and diagnostics), with each file's stamp. */
export function walkRootSync(root: string, version: MemoryVersion, nowSec = Math.floor(Date.now() / 1000)): RootWalk {
  const info = lstatSync(root, { throwIfNoEntry: false });
  if (!info) throw missingRoot(root, version);
  checkRootInfo(root, version, info);
  const state: WalkState = { root, files: [], diagnostics: [] };
  const stamps = new Map<string, Stamp>();
  const prefix = root.endsWith(sep) ? root : root + sep;
  const pending = [''];
  // Walked by an iterator, not shift(): shifting a queue of 130,000 folders moved the whole array each time (a
  // minute). The queue grows while it is walked; the iterator reads its length at every step.
  for (const relDir of pending) {
    let entries: Dirent[];
    try {
      entries = readdirSync(relDir === '' ? root : prefix + relDir, { withFileTypes: true });
    } catch (error) {
      state.diagnostics.push(unreadableFolder(relDir, error));
      continue;
    }
    const { subdirs, fileNames } = sortEntries(state, relDir, entries);
    for (const rel of fileNames) {
      // Plain concatenation: the root is a resolved path and `rel` has no dot segments (path.join would normalise each).
      const stat = lstatSync(prefix + rel, { throwIfNoEntry: false });
      if (!stat) continue; // Removed between readdir and lstat.
      addFileEntry(state, rel, stat);
      stamps.set(rel, { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
    }
    appendAll(pending, subdirs);
  }
  return { list: finishList(state, version, nowSec), stamps };
}

/** Every rollout under sessions/ and archived_sessions/, with its stamp (symlinks are never followed). */
export function walkSessionsSync(codexHome: string): { listing: SessionListing; stamps: Map<string, Stamp> } {
  const listing: SessionListing = { files: [], skipped: [] };
  const stamps = new Map<string, Stamp>();
  const pending: Array<{ dir: string; archived: boolean; depth: number }> = [
    { dir: join(codexHome, SESSIONS_DIR), archived: false, depth: 0 },
    { dir: join(codexHome, ARCHIVED_SESSIONS_DIR), archived: true, depth: 0 },
  ];
  for (const { dir, archived, depth } of pending) {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') listing.skipped.push({ path: dir, reason: `folder cannot be read (${code ?? 'error'})` });
      continue;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH) pending.push({ dir: join(dir, entry.name), archived, depth: depth + 1 });
      } else if (entry.isFile()) addFile(dir, entry.name, archived, listing);
    }
  }
  listing.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of listing.files) {
    const stat = lstatSync(file.path, { throwIfNoEntry: false });
    // A file gone since the listing has no stamp: scanning it reports the error.
    if (stat) stamps.set(file.path, { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
  }
  return { listing, stamps };
}

export interface GitScan {
  /** Every folder under `.git/` with its mtime. */
  dirs: Array<[string, number]>;
  /** Symlinks inside `.git/` (Codex's `remove_memory_symlinks` walks there too). */
  symlinks: string[];
}

function walkGit(root: string): GitScan {
  const scan: GitScan = { dirs: [], symlinks: [] };
  const pending = ['.git'];
  while (pending.length > 0) {
    const rel = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true });
      scan.dirs.push([rel, lstatSync(join(root, rel)).mtimeMs]);
    } catch {
      continue; // No .git, or an unreadable folder: nothing Memory Studio can say about it.
    }
    for (const entry of entries) {
      if (entry.isSymbolicLink()) scan.symlinks.push(`${rel}/${entry.name}`);
      else if (entry.isDirectory()) pending.push(`${rel}/${entry.name}`);
    }
  }
  scan.symlinks.sort();
  return scan;
}

/**
 * The symlinks under `.git/`, re-read only when a folder there changed: a link created anywhere changes its folder's
 * mtime, so a stat of each known folder (a few hundred) stands in for reading them all.
 */
export function scanGitSymlinks(root: string, saved: GitScan | null): { scan: GitScan; changed: boolean } {
  if (saved) {
    let same = saved.dirs.length > 0 || !existsQuietly(join(root, '.git'));
    for (const [rel, mtimeMs] of saved.dirs) {
      if (!same) break;
      try {
        same = lstatSync(join(root, rel)).mtimeMs === mtimeMs;
      } catch {
        same = false;
      }
    }
    if (same) return { scan: saved, changed: false };
  }
  return { scan: walkGit(root), changed: true };
}

function existsQuietly(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
