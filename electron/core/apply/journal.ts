// The apply journal: written (fsync'd) before the first rename, so an interrupted apply can be finished or undone.
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { mkdir, readdir, unlink } from 'node:fs/promises';
import { fsyncDir, tempWriterGone, writeFileAtomic } from '../platform/atomic-write';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../platform/private-files';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { StudioFailure } from '../platform/errors';
import { errorCode } from '../platform/storage-faults';
import type { Journal } from './journal-record';

export type { Journal, JournaledHistoryFile, JournalEntry, JournalRecord, RecordFile } from './journal-record';

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

export interface FoundJournal {
  path: string;
  journal: Journal;
}

/** A journal that is there but cannot be trusted: unreadable, not JSON, or not the shape this build writes. */
export interface UnreadableJournal {
  path: string;
  problem: string;
}

/**
 * Every complete journal in the data folder (half-written `.tmp` ones never counted: nothing was renamed yet), and
 * those that are there but do not parse: the caller decides what those mean, never this read.
 */
export async function readJournals(dataDir: string): Promise<{ journals: FoundJournal[]; unreadable: UnreadableJournal[] }> {
  const dir = journalDir(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  const journals: FoundJournal[] = [];
  const unreadable: UnreadableJournal[] = [];
  for (const name of names) {
    const path = join(dir, name);
    // A journal half written by a process that is gone (writeFileAtomic's temp name; older ones end in `.<pid>.tmp`).
    const writerGone = tempWriterGone(name, true);
    if (writerGone !== null) {
      if (writerGone) await unlink(path).catch(() => undefined);
      continue;
    }
    if (!name.endsWith('.json')) continue;
    let bytes: Buffer;
    try {
      bytes = (await readRegularFile(path, path, NO_CAP)).bytes;
    } catch (error) {
      // Finished meanwhile by another process's recovery: nothing left to judge.
      if (errorCode(error) === 'ENOENT') continue;
      unreadable.push({ path, problem: error instanceof Error ? error.message : String(error) });
      continue;
    }
    // Loaded on use: a start with no journal (every normal one) loads no schema and no zod.
    const { parseJournal } = await import('./journal-record.js');
    const parsed = parseJournal(bytes);
    if (parsed.ok) journals.push({ path, journal: parsed.value });
    else unreadable.push({ path, problem: parsed.problem });
  }
  return { journals, unreadable };
}

/**
 * Refuses to go on past a journal it cannot read: which files that Apply was changing, and whether its temp files
 * hold the new bytes, is exactly what the journal says, so recovery neither guesses nor deletes it; nothing is touched.
 */
export function unreadableJournalFailure({ path, problem }: UnreadableJournal): StudioFailure {
  return new StudioFailure(
    'Invalid',
    `The journal of an interrupted Apply, ${path}, cannot be read: ${problem}. Memory Studio cannot tell which memory files that Apply was changing, so it changed nothing and applies nothing until this journal is dealt with.`,
    {
      path,
      hint: `Check the files that Apply was writing: each is whole, at its old or its new content, and a file named "….memory-studio-<pid>-….tmp" beside one holds its new content. Put them as you want them, then move ${path} out of ${dirname(path)} and start Memory Studio again (or put back a good copy of the journal: recovery then finishes that Apply itself).`,
    },
  );
}

/** Every complete journal in the data folder; one that cannot be read is refused (`unreadableJournalFailure`). */
export async function listJournals(dataDir: string): Promise<FoundJournal[]> {
  const { journals, unreadable } = await readJournals(dataDir);
  const [first] = unreadable;
  if (first) throw unreadableJournalFailure(first);
  return journals;
}
