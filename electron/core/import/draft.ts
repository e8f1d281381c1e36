// The import wizard's resumable state: one JSON file in the Studio data folder, written atomically.
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ImportDraftSchema, type ImportDraft } from '../../../shared/import';
import { writeFileAtomic } from '../platform/atomic-write';
import { StudioFailure } from '../platform/errors';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../platform/private-files';
import { NO_CAP, readRegularFile } from '../platform/regular-file';

export const DRAFT_FILE = 'import-draft.json';

export function draftPath(dataDir: string): string {
  return join(dataDir, DRAFT_FILE);
}

/** The saved draft, or null when there is none; a damaged file is treated as none (it is only wizard state). */
export async function readDraft(dataDir: string): Promise<ImportDraft | null> {
  let text: string;
  try {
    text = (await readRegularFile(draftPath(dataDir), draftPath(dataDir), NO_CAP, undefined, { follow: true })).bytes.toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const parsed = ImportDraftSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Writes the draft through a temp file, fsync and rename, so a crash leaves the old draft or the new one. */
export async function saveDraft(dataDir: string, draft: Omit<ImportDraft, 'savedAt'>, now = Date.now()): Promise<ImportDraft> {
  const full = ImportDraftSchema.parse({ ...draft, savedAt: now });
  await mkdir(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const target = draftPath(dataDir);
  try {
    await writeFileAtomic(target, JSON.stringify(full, null, 2), PRIVATE_FILE_MODE);
  } catch (error) {
    throw new StudioFailure('Internal', `The import draft could not be saved to ${target}: ${(error as Error).message}.`, {
      path: target,
      hint: 'Check that the data folder is writable; the wizard keeps working without a draft.',
    });
  }
  return full;
}

export async function clearDraft(dataDir: string): Promise<boolean> {
  const target = draftPath(dataDir);
  try {
    await rm(target);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}
