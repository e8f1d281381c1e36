// Reads only regular files: the open never blocks (O_NONBLOCK), and FIFOs, sockets, devices and folders are refused.
//
// A named pipe in a memory folder made `workspace.read` wait forever for a writer, and every such read held one of
// libuv's four pool threads until the serve host stopped answering. With O_NONBLOCK the open of a FIFO returns at
// once, fstat tells what was opened, and anything but a regular file is closed unread.
import { close, constants, fstat, open, read, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import { StudioFailure } from './errors';

const openFd = promisify(open);
const fstatFd = promisify(fstat);
const closeFd = promisify(close);
const readFd = promisify(read);

/** O_RDONLY, never waiting for a FIFO's writer. */
export const NONBLOCKING_READ = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
/** The same, never following a final symlink either (memory folders). */
export const READ_FLAGS = NONBLOCKING_READ | (constants.O_NOFOLLOW ?? 0);

/** What a non-regular file is, in words: "a named pipe (FIFO)", "a socket", … */
export function describeFileType(
  info: Pick<Stats, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isDirectory' | 'isSymbolicLink'>,
): string {
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isDirectory()) return 'a folder';
  if (info.isSymbolicLink()) return 'a symlink';
  return 'not a regular file';
}

export const notRegular = (label: string, what: string) =>
  new StudioFailure('Invalid', `${label} is ${what}, not a regular file, so Memory Studio does not read it.`, {
    path: label,
    hint: 'Memory files are plain Markdown files; remove or move this entry if it does not belong in the folder.',
  });

export interface RegularFile {
  bytes: Buffer;
  size: number;
  mtimeMs: number;
}

/**
 * The bytes of `path` if it is a regular file of at most `capBytes`; `tooBig(size)` makes the error for a larger
 * one (checked on the open file before reading). `label` names the file in messages.
 */
export async function readRegularFile(
  path: string,
  label: string,
  capBytes: number,
  tooBig: (size: number) => Error,
): Promise<RegularFile> {
  let fd: number;
  try {
    fd = await openFd(path, READ_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new StudioFailure('Unsupported', `${label} is a symlink; Memory Studio never follows symlinks here.`, { path: label });
    if (code === 'ENXIO') throw notRegular(label, 'a socket');
    if (code === 'ENOENT')
      throw new StudioFailure('NotFound', `${label} does not exist any more.`, {
        path: label,
        hint: 'It may have been removed meanwhile; refresh the file list.',
      });
    throw error;
  }
  try {
    const info = await fstatFd(fd);
    if (!info.isFile()) throw notRegular(label, describeFileType(info));
    if (info.size > capBytes) throw tooBig(info.size);
    // One read of the known size, then one more to see whether the file grew meanwhile (read to the end either way).
    const chunks: Buffer[] = [];
    let total = 0;
    for (let want = Math.max(info.size, 1); ; want = 64 * 1024) {
      const buffer = Buffer.allocUnsafe(want);
      const { bytesRead } = await readFd(fd, buffer, 0, want, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > capBytes) throw tooBig(total);
      chunks.push(bytesRead === want ? buffer : buffer.subarray(0, bytesRead));
    }
    return {
      bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total),
      size: total,
      mtimeMs: Math.round(info.mtimeMs),
    };
  } finally {
    await closeFd(fd).catch(() => undefined);
  }
}
