// The shape a refreshed index is read in: the connection, each root's listing, the sessions' listing, memos.
import type Database from 'better-sqlite3';
import type { FileList, HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { UsageReport } from '../../../shared/provenance';
import { StudioFailure } from '../platform/errors';
import type { SummaryHead } from '../inspect/summary-heads';
import type { SessionListing } from '../sessions/session-files';
import type { IndexScanResult } from './tasks';
import { generationOf } from './write';

export interface IndexedRoot {
  root: string;
  list: FileList;
  gitSymlinks: string[];
}

/** A home as the index saw it in its last refresh: the connection, each root's listing, the sessions' listing. */
export interface IndexedHome {
  db: Database.Database;
  /** The index's change counter after the refresh: answers derived from it are kept per generation. */
  generation: number;
  home: HomeInfo;
  roots: Map<MemoryVersion, IndexedRoot>;
  sessions: SessionListing;
  /** False after a roots-only refresh (search): usage and lint need a refresh with the sessions. */
  sessionsScanned: boolean;
  /** Roots the walk refused (a symlinked root, not a folder), with the same failure a listing gives. */
  errors: Map<MemoryVersion, Error>;
  /** The usage report, computed once per refresh (sessions, citations and Codex's counters do not change within it). */
  usage?: Promise<UsageReport>;
  /** Rollout summaries' heads per root, read once per refresh. */
  heads?: Map<MemoryVersion, SummaryHead[]>;
  answerKey?: Promise<string>;
}

/** Turns a refresh's scan into the shape the inspect answers read (root failures become the same failures as a listing). */
export function indexedHome(db: Database.Database, home: HomeInfo, scan: IndexScanResult, sessionsScanned: boolean): IndexedHome {
  const roots = new Map<MemoryVersion, IndexedRoot>();
  const errors = new Map<MemoryVersion, StudioFailure>();
  for (const r of scan.roots) {
    const path = home.roots.find((x) => x.version === r.version)?.path as string;
    if ('list' in r) roots.set(r.version, { root: path, list: r.list, gitSymlinks: r.gitSymlinks });
    else
      errors.set(
        r.version,
        new StudioFailure((r.error.kind as StudioFailure['kind']) ?? 'Internal', r.error.message, {
          path: r.error.path,
          hint: r.error.hint,
        }),
      );
  }
  const sessions: SessionListing = scan.sessions.listing;
  return { db, home, generation: generationOf(db), roots, sessions, sessionsScanned, errors };
}
