// The apply journal: written (fsync'd) before the first rename, so an interrupted apply can be finished or undone.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { fsyncDir, tempWriterGone, writeFileAtomic } from '../platform/atomic-write';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../platform/private-files';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import type { MaskedHistoryFile } from '../history';
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

/** One file of the history entry Apply records, by hash: the decided result's change to the proposal file `ord`. */
export interface RecordFile {
  ord: number;
  beforeSha256: string | null;
  afterSha256: string | null;
}

/**
 * One history file as journaled. A file without a secret is journaled without its texts (`stored`, before and after
 * null): they are the proposal's stored base and the file Apply wrote, which recovery reads back and checks by hash,
 * so a 5 MB MEMORY.md does not cost 10 MB of journal before the first rename.
 */
export type JournaledHistoryFile = MaskedHistoryFile & { ord: number; stored?: true };

/**
 * What recovery needs to record an Apply it finishes exactly as the Apply would have (by proposal, whatever its
 * source): the proposal is the journal's id; the decided result is checked against `files` (every file the history
 * entry lists, those already in place included) before the entry is written with `summary`; the proposal's Codex-DB
 * changes are made again (they are idempotent) with the DB files and leases named here. No text in clear is kept.
 */
export interface JournalRecord {
  summary: string;
  files: RecordFile[];
  /**
   * The entry's files exactly as the Apply records them (texts masked as history keeps them, real hashes, what a
   * change removed): the live texts before are gone once renamed, so recovery records these. Absent in older journals.
   */
  history?: JournaledHistoryFile[];
  db?: {
    /** The DB file each change names (`memories_v1`, `memories_v2`, `state`), as Apply resolved it. */
    paths: Partial<Record<string, string>>;
    /** The versions whose Codex lease the DB step holds, with their root (locked) and memory DB. */
    leases: { version: MemoryVersion; root: string; dbPath: string }[];
  };
}

export interface Journal {
  id: string;
  pid: number;
  createdAt: number;
  entries: JournalEntry[];
  /** Set by a proposal's Apply: recovery then records the history entry, provenance and status it would have. */
  record?: JournalRecord;
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
