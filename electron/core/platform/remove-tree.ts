// Removing a folder tree without holding the main loop. `fs.promises.rm` with `recursive` starts every entry of a
// folder at once, and thousands of them settle in one turn of the loop: a heavy root's staging copy (4,200 files) held
// it about 70 ms. Here a folder's entries go a batch at a time, each batch waiting for the last, so a turn of the loop
// settles one batch at most.
import type { Dirent } from 'node:fs';
import { readdir, rmdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Entries of one folder removed together (a subfolder counts as one, its own entries following the same rule). */
export const REMOVE_BATCH = 32;

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

async function removeEntry(path: string, entry: Dirent): Promise<void> {
  // A symlink is removed, never followed (Dirent does not follow it).
  if (entry.isDirectory()) await removeTreeGently(path);
  else
    await unlink(path).catch((error: unknown) => {
      if (!missing(error)) throw error;
    });
}

/**
 * Removes `dir` and everything under it, `REMOVE_BATCH` entries of a folder at a time; a missing `dir` is no error,
 * nor an entry gone meanwhile. `last` names an entry of `dir` removed after every other (a run's owner record, so a
 * removal cut short by a crash leaves a folder the next start still knows as a dead run's). Other failures are thrown
 * once the batch under way has settled.
 */
export async function removeTreeGently(dir: string, options: { last?: string } = {}): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (missing(error)) return;
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
    await unlink(dir);
    return;
  }
  const first = entries.filter((e) => e.name !== options.last);
  const after = entries.filter((e) => e.name === options.last);
  for (let i = 0; i < first.length; i += REMOVE_BATCH) {
    const settled = await Promise.allSettled(first.slice(i, i + REMOVE_BATCH).map((e) => removeEntry(join(dir, e.name), e)));
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  }
  for (const e of after) await removeEntry(join(dir, e.name), e);
  await rmdir(dir).catch((error: unknown) => {
    if (!missing(error)) throw error;
  });
}
