// The stat-only pass: one walk per root and of the sessions folders, compared with the index to find what to re-read.
import type Database from 'better-sqlite3';
import type { FileList, MemoryVersion } from '../../../shared/domain';
import type { SessionFile, SessionListing } from '../sessions/session-files';
import { stmt } from './statements';
import { bumpGeneration, ensureRoot, removeFile, removeSession, saveGitScan } from './write';
import { scanGitSymlinks, walkRootSync, walkSessionsSync, type Stamp } from './walk';

export interface RootScan {
  version: MemoryVersion;
  list: FileList;
  /** Paths whose stamp differs from the index's (or that it does not have yet). */
  changed: string[];
  removed: number;
  gitSymlinks: string[];
}

export interface SessionsScan {
  listing: SessionListing;
  changed: SessionFile[];
  removed: number;
  stamps: Map<string, Stamp>;
}

const sameStamp = (row: [string, number, number, number] | undefined, stamp: Stamp) =>
  row !== undefined && row[1] === stamp.size && row[2] === stamp.mtimeMs && row[3] === stamp.ino;

/** Walks `root` once, drops rows of files that are gone, and lists the files to (re)analyse. */
export function scanRoot(db: Database.Database, version: MemoryVersion, root: string): RootScan {
  const { list, stamps } = walkRootSync(root, version);
  const savedGit = ensureRoot(db, version, root);
  const rows = new Map<string, [string, number, number, number]>();
  for (const row of stmt(db, 'SELECT path, size, mtime_ms, ino FROM files WHERE version = ?').raw(true).all(version) as Array<
    [string, number, number, number]
  >)
    rows.set(row[0], row);
  const changed: string[] = [];
  for (const file of list.files) if (!sameStamp(rows.get(file.path), stamps.get(file.path) as Stamp)) changed.push(file.path);
  const gone = [...rows.keys()].filter((path) => !stamps.has(path));
  const git = scanGitSymlinks(root, savedGit);
  const linksChanged = git.changed && JSON.stringify(git.scan.symlinks) !== JSON.stringify(savedGit?.symlinks ?? null);
  if (gone.length > 0 || git.changed) {
    db.transaction(() => {
      for (const path of gone) removeFile(db, version, path);
      if (git.changed) saveGitScan(db, version, git.scan);
      // Codex's commits change .git/'s folders all the time; only a different set of links changes an answer.
      if (gone.length > 0 || linksChanged) bumpGeneration(db);
    }).immediate();
  }
  return { version, list, changed, removed: gone.length, gitSymlinks: git.scan.symlinks };
}

/** Walks sessions/ and archived_sessions/ once; a rollout is re-scanned when its size or mtime changed (Codex appends). */
export function scanSessions(db: Database.Database, codexHome: string): SessionsScan {
  const { listing, stamps } = walkSessionsSync(codexHome);
  const rows = new Map<string, [string, number, number]>();
  for (const row of stmt(db, 'SELECT path, size, mtime_ms FROM sessions').raw(true).all() as Array<[string, number, number]>)
    rows.set(row[0], row);
  const changed = listing.files.filter((f) => {
    const row = rows.get(f.path);
    const stamp = stamps.get(f.path);
    return !row || !stamp || row[1] !== stamp.size || row[2] !== stamp.mtimeMs;
  });
  const present = new Set(listing.files.map((f) => f.path));
  const gone = [...rows.keys()].filter((path) => !present.has(path));
  if (gone.length > 0) {
    db.transaction(() => {
      for (const path of gone) removeSession(db, path);
      bumpGeneration(db);
    }).immediate();
  }
  return { listing, changed, removed: gone.length, stamps };
}
