// The trash keeps each file an Apply deleted, with every secret masked once the Apply is over (no secret at rest).
import { readdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-write';
import { narrowTree, PRIVATE_FILE_MODE } from '../platform/private-files';
import { readRegularFile } from '../platform/regular-file';
import { decodeUtf8Strict } from '../platform/utf8';
import { ANALYSIS_CAP_BYTES } from '../codex/workspace';
import { maskTextForStorage } from '../lint/mask-at-rest';

export const TRASH_DIR = 'trash';

/** Left in a trash folder once its files are masked, so a later start-up does not read them again. */
const MASKED_MARK = '.masked';

export function trashDir(dataDir: string): string {
  return join(dataDir, TRASH_DIR);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && !(e.parentPath === dir && e.name === MASKED_MARK)).map((e) => join(e.parentPath, e.name));
}

/** One kept file, masked in place (atomically, 0600) when it holds a secret. */
async function maskKept(path: string): Promise<boolean> {
  const file = await readRegularFile(path, path, ANALYSIS_CAP_BYTES, () => new Error('too big')).catch(() => null);
  const text = file ? decodeUtf8Strict(file.bytes) : null;
  const masked = text === null ? null : maskTextForStorage(text);
  if (masked === null || masked === text) return false;
  await writeFileAtomic(path, masked, PRIVATE_FILE_MODE);
  return true;
}

/**
 * Masks what one Apply moved to the trash. Only once the Apply is over: until then its journal may still move a file
 * back into the memory folder, whole. A file too big to read, binary or not UTF-8 (no memory file is) stays as it is.
 * Returns how many files held a secret.
 */
export async function maskTrashFolder(folder: string): Promise<number> {
  let masked = 0;
  for (const path of await filesUnder(folder)) if (await maskKept(path)) masked++;
  await writeFile(join(folder, MASKED_MARK), '', { mode: PRIVATE_FILE_MODE }).catch(() => undefined);
  // A moved file kept its memory-folder mode, and its folders (the trash's own too) were made with the umask's: private
  // now, as the data folder is.
  await narrowTree(folder);
  await narrowTree(dirname(folder), [basename(folder)]);
  return masked;
}

/** Every trash folder not masked yet and not named by a journal (`inUse`: an Apply that may still need it whole). */
export async function maskTrash(dataDir: string, inUse: ReadonlySet<string>): Promise<number> {
  const root = trashDir(dataDir);
  let masked = 0;
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const folder = join(root, name);
    if (inUse.has(folder)) continue;
    const done = await readdir(folder).then(
      (names) => names.includes(MASKED_MARK),
      () => true,
    );
    if (!done) masked += await maskTrashFolder(folder);
  }
  return masked;
}
