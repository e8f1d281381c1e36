// The apply journal: written (fsync'd) before the first rename, so an interrupted apply can be finished or undone.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { fsyncDir, tempWriterGone, writeFileAtomic } from '../platform/atomic-write';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../platform/private-files';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import type { MemoryVersion } from './types';

export interface JournalEntry {
  version: MemoryVersion;
  root: string;
  relPath: string;
  /** Absolute target path (already checked inside the root). */
  target: string;
  /** Temp file holding the proposed bytes; null for a deletion. */
  temp: string | null;
  /** Where a deletion moves the file; null for a write. */
  trash: string | null;
  baseSha256: string | null;
  targetSha256: string | null;
  /** A project's AGENTS.md: its folder is swept for temp files at its top only, never walked (it is a whole repository). */
  project?: boolean;
}

export interface Journal {
  id: string;
  pid: number;
  createdAt: number;
  entries: JournalEntry[];
}

export function journalDir(dataDir: string): string {
  return join(dataDir, 'journal');
}

export function journalPath(dataDir: string, id: string): string {
  return join(journalDir(dataDir), `${id}.json`);
}

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Written to a temp name and renamed, so a journal on disk is always complete. */
export async function writeJournal(dataDir: string, journal: Journal): Promise<string> {
  const dir = journalDir(dataDir);
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const path = journalPath(dataDir, journal.id);
  await writeFileAtomic(path, JSON.stringify(journal), PRIVATE_FILE_MODE);
  return path;
}

export async function deleteJournal(path: string): Promise<void> {
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await fsyncDir(join(path, '..')).catch(() => undefined);
}

/** Every complete journal in the data folder (half-written `.tmp` ones never counted: nothing was renamed yet). */
export async function listJournals(dataDir: string): Promise<{ path: string; journal: Journal }[]> {
  const dir = journalDir(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  const found: { path: string; journal: Journal }[] = [];
  for (const name of names) {
    const path = join(dir, name);
    // A journal half written by a process that is gone (writeFileAtomic's temp name; older ones end in `.<pid>.tmp`).
    const writerGone = tempWriterGone(name, true);
    if (writerGone !== null) {
      if (writerGone) await unlink(path).catch(() => undefined);
      continue;
    }
    if (!name.endsWith('.json')) continue;
    const journal = await readRegularFile(path, path, NO_CAP)
      .then((file) => JSON.parse(file.bytes.toString('utf8')) as Journal)
      .catch(() => null);
    if (journal) found.push({ path, journal });
  }
  return found;
}
