// Low-level durable file steps: temp files beside the target, fsync, rename, folder fsync, and moves to the trash.
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { copyFile, mkdir, open, rename, unlink } from 'node:fs/promises';
import { deadInThisNamespace, namespaceId } from './host-identity';

/** Temp names Codex's workspace scan and our own sweep can recognise: `.<name>.memory-studio-<pid>-<rand>.tmp`. */
/** `.<name>.memory-studio-<pid>-n<namespace>-<random>.tmp` (older ones have no `-n<namespace>`): pid and namespace. */
export const TEMP_FILE_PATTERN = /^\..+\.memory-studio-(\d+)(?:-n([0-9a-f]{12}))?-[0-9a-f]+\.tmp$/;

export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.memory-studio-${process.pid}-n${namespaceId()}-${randomBytes(6).toString('hex')}.tmp`);
}

/** The data folder's older temp names, `<name>.<pid>.tmp` (journals and lease records before TEMP_FILE_PATTERN). */
const OLDER_DATA_TEMP = /\.(\d+)\.tmp$/;

/**
 * For a temp file name: true when the process that was writing it (of this namespace) is gone, so it can be removed;
 * false when it may still be written; null when the name is no temp of ours. `olderNames` also takes the data folder's
 * older `<name>.<pid>.tmp` names (never in a memory root, where such a name may be the person's own file).
 */
export function tempWriterGone(name: string, olderNames = false): boolean | null {
  const temp = TEMP_FILE_PATTERN.exec(name);
  // An older temp name has no namespace: judged by pid, as before. Another namespace's temp may be a live writer's.
  if (temp) return deadInThisNamespace(Number(temp[1]), temp[2] ?? namespaceId());
  const older = olderNames ? OLDER_DATA_TEMP.exec(name) : null;
  return older ? deadInThisNamespace(Number(older[1]), namespaceId()) : null;
}

/** The OS errors a test can inject into a write (Apply's fault hooks). */
export type FaultCode = 'ENOSPC' | 'EACCES' | 'EROFS' | 'EIO';

export function faultError(code: FaultCode, path: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: injected fault, write '${path}'`);
  error.code = code;
  error.path = path;
  return error;
}

/** Writes `data` to a new file and fsyncs it; on failure the partial file is removed and the error rethrown. */
export async function writeDurable(
  path: string,
  data: Buffer,
  mode: number,
  fault?: { afterBytes: number; code: FaultCode },
): Promise<void> {
  const handle = await open(path, 'wx', mode);
  try {
    if (fault) {
      await handle.write(data, 0, Math.min(fault.afterBytes, data.length), 0);
      throw faultError(fault.code, path);
    }
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw error;
  }
  await handle.close();
}

/**
 * The one whole-file atomic write of core: a temp file beside `path` (created exclusively, fsynced), renamed over it,
 * then the folder fsynced so the rename survives a power cut. On any failure the temp file is removed and `path` is
 * untouched. Apply's multi-file commit uses the same steps (`prepare.ts`, `commit.ts`) with its journal in between.
 */
export async function writeFileAtomic(path: string, data: Buffer | string, mode = 0o644): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: folderModeFor(mode) });
  const temp = tempPathFor(path);
  await writeDurable(temp, typeof data === 'string' ? Buffer.from(data, 'utf8') : data, mode);
  try {
    await renameDurable(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * writeFileAtomic for the few writes that must happen inside a synchronous SQLite transaction (Codex's lease record):
 * the same temp, fsync, rename and folder fsync, without yielding.
 */
export function writeFileAtomicSync(path: string, data: Buffer | string, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true, mode: folderModeFor(mode) });
  const temp = tempPathFor(path);
  const fd = openSync(temp, 'wx', mode);
  try {
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    try {
      unlinkSync(temp);
    } catch {
      // Already renamed or never written: nothing to remove.
    }
    throw error;
  }
  fsyncDirSync(dirname(path));
}

/** A private file's missing folders are made private too (the data folder's 0700): others get the umask's default. */
function folderModeFor(fileMode: number): number | undefined {
  return (fileMode & 0o077) === 0 ? 0o700 : undefined;
}

/** Renames a complete, fsynced temp file over `target` and makes the rename durable. */
export async function renameDurable(temp: string, target: string): Promise<void> {
  await rename(temp, target);
  await fsyncDir(dirname(target));
}

/** Makes a rename or unlink in `dir` durable; some file systems refuse fsync on folders, which we tolerate. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync().catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EINVAL' && error.code !== 'ENOTSUP') throw error;
    });
  } finally {
    await handle.close();
  }
}

function fsyncDirSync(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EINVAL' && code !== 'ENOTSUP') throw error;
  } finally {
    closeSync(fd);
  }
}

/** Moves a file to `dest` (a rename on the same device; copy, fsync, unlink across devices). */
export async function moveFile(source: string, dest: string): Promise<void> {
  await mkdir(dirname(dest), { recursive: true });
  try {
    await rename(source, dest);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(source, dest);
    const handle = await open(dest, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await unlink(source);
  }
  await fsyncDir(dirname(dest));
  await fsyncDir(dirname(source));
}
