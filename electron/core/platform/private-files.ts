// The data folder is private to its owner: folders 0700, files 0600, made so and put right when found otherwise.
import { chmodSync, closeSync, constants, lstatSync, mkdirSync, openSync } from 'node:fs';
import { chmod, lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Modes for what Memory Studio keeps in its data folder (Windows ignores them; its profile folder is private already). */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Creates `dir` (and missing parents) as 0700 and makes `dir` itself 0700 if it already existed with more. */
export function ensurePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  try {
    const info = lstatSync(dir);
    if (info.isDirectory() && (info.mode & 0o077) !== 0) chmodSync(dir, info.mode & PRIVATE_DIR_MODE);
  } catch {
    // A folder of another owner cannot be narrowed by us; what is written into it is still made 0600.
  }
}

/**
 * Makes sure `path` exists as a 0600 file before a library opens it (SQLite creates its files 0644 and gives the
 * `-wal` and `-shm` files the database file's mode): created empty when absent, narrowed when it is wider.
 */
export function ensurePrivateFileSync(path: string): void {
  try {
    // Never through a symlink, and never waiting: a FIFO under that name fails at once (ENXIO) instead of holding the
    // thread until something reads it; SQLite's own open then says what is wrong with the file.
    const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
    closeSync(openSync(path, flags, PRIVATE_FILE_MODE));
    const info = lstatSync(path);
    if (info.isFile() && (info.mode & 0o077) !== 0) chmodSync(path, info.mode & PRIVATE_FILE_MODE);
  } catch {
    // A folder under that name, a read-only or full disk: the library's own open reports it, with its own words.
  }
}

/**
 * Narrows every folder to 0700 and every regular file to 0600 under `dir` (itself included), for a data folder made
 * by an older build. Symlinks are never followed or changed; `skip` names top-level entries left alone (the demo home,
 * which is a Codex home of its own). Returns how many entries were narrowed.
 */
export async function narrowTree(dir: string, skip: readonly string[] = []): Promise<number> {
  let narrowed = 0;
  const visit = async (path: string, top: boolean): Promise<void> => {
    const info = await lstat(path).catch(() => null);
    if (!info) return;
    if (info.isDirectory()) {
      if ((info.mode & 0o077) !== 0) {
        await chmod(path, info.mode & PRIVATE_DIR_MODE).catch(() => undefined);
        narrowed++;
      }
      const names = await readdir(path).catch(() => [] as string[]);
      for (const name of names) if (!(top && skip.includes(name))) await visit(join(path, name), false);
    } else if (info.isFile() && (info.mode & 0o077) !== 0) {
      await chmod(path, info.mode & PRIVATE_FILE_MODE).catch(() => undefined);
      narrowed++;
    }
  };
  await visit(dir, true);
  return narrowed;
}
