// Finds rollout files under `sessions/` and `archived_sessions/` and reads thread ids from their names.
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join, sep } from 'node:path';
import { ARCHIVED_SESSIONS_DIR, SESSIONS_DIR } from '../codex/constants';
import { group } from '../platform/indexed';
import { canonicalThreadId } from './citations';
import { mapLimit } from '../platform/map-limit';

/** `rollout-<timestamp>-<uuid>.jsonl`; the timestamp itself contains dashes, so the UUID is matched from the end. */
const ROLLOUT_NAME = /^rollout-(.+)-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl$/;
/** sessions/YYYY/MM/DD is three levels; a little slack for archives that keep the same layout. */
export const MAX_DEPTH = 5;

export interface SessionFile {
  path: string;
  archived: boolean;
  /** The UUID suffix of the name (the thread id), lowercase; null when the name has none. */
  threadId: string | null;
  /** The `YYYY-MM-DDThh-mm-ss` part of the name (local time of the machine that wrote it). */
  nameTimestamp: string | null;
}

export interface SessionListing {
  files: SessionFile[];
  skipped: Array<{ path: string; reason: string }>;
}

/** The thread id a rollout's file name carries, or null. */
export function threadIdFromRolloutPath(path: string): string | null {
  const match = ROLLOUT_NAME.exec(basename(path));
  return match ? canonicalThreadId(group(match, 2)) : null;
}

async function listDir(dir: string, listing: SessionListing): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') listing.skipped.push({ path: dir, reason: `folder cannot be read (${code ?? 'error'})` });
    return [];
  }
}

/** Adds `dir/name` to the listing when it is a rollout file; a rollout name without a thread UUID is noted as skipped. */
export function addFile(dir: string, name: string, archived: boolean, listing: SessionListing): void {
  if (!name.startsWith('rollout-') || !name.endsWith('.jsonl')) return;
  const path = `${dir}${sep}${name}`;
  const match = ROLLOUT_NAME.exec(name);
  if (!match) {
    listing.skipped.push({ path, reason: 'rollout file name without a thread UUID' });
    return;
  }
  listing.files.push({ path, archived, threadId: canonicalThreadId(group(match, 2)), nameTimestamp: match[1] ?? null });
}

/**
 * Every rollout file, breadth-first, reading each level's folders with bounded concurrency. Symlinks are not
 * followed (a Dirent for a symlink is neither a file nor a folder).
 */
export async function listSessionFiles(codexHome: string, concurrency = 16): Promise<SessionListing> {
  const listing: SessionListing = { files: [], skipped: [] };
  let level: Array<{ dir: string; archived: boolean }> = [
    { dir: join(codexHome, SESSIONS_DIR), archived: false },
    { dir: join(codexHome, ARCHIVED_SESSIONS_DIR), archived: true },
  ];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const entries = await mapLimit(level, concurrency, (d) => listDir(d.dir, listing));
    const nextLevel: typeof level = [];
    level.forEach((d, i) => {
      for (const entry of entries[i] ?? []) {
        if (entry.isDirectory()) nextLevel.push({ dir: join(d.dir, entry.name), archived: d.archived });
        else if (entry.isFile()) addFile(d.dir, entry.name, d.archived, listing);
      }
    });
    level = nextLevel;
  }
  listing.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return listing;
}
