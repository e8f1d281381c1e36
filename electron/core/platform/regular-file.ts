// The one way core reads a file: regular files only, opened without blocking (O_NONBLOCK) or following a final symlink.
//
// A named pipe in a memory folder made `workspace.read` wait forever for a writer, and every such read held one of
// libuv's four pool threads until the serve host stopped answering; a FIFO named MEMORY.md later hung a consolidation
// holding Codex's lease, through a reader that opened the file its own way. With O_NONBLOCK the open of a FIFO returns
// at once, fstat tells what was opened, and anything but a regular file is closed unread. Every reader goes through
// here (async or sync, whole or a head): no other module opens a file for reading with flags of its own.
import { constants as bufferConstants } from 'node:buffer';
import { close, closeSync, constants, fstat, fstatSync, open, openSync, read, readSync, type Stats } from 'node:fs';
import { promisify } from 'node:util';
import { StudioFailure } from './errors';

const openFd = promisify(open);
const fstatFd = promisify(fstat);
const closeFd = promisify(close);
const readFd = promisify(read);

/** O_RDONLY, never waiting for a FIFO's writer, never making a terminal device ours. */
const NONBLOCKING_READ = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
/** The same, never following a final symlink either (memory folders, the data folder, import sources). */
const READ_FLAGS = NONBLOCKING_READ | (constants.O_NOFOLLOW ?? 0);

/** The cap for readers that had none of their own (a staging copy): the largest Buffer Node can make. */
export const NO_CAP = bufferConstants.MAX_LENGTH;

export interface ReadOptions {
  /**
   * Follow a symlink at the last component (a session file: `sessions/` may be a symlink, and Codex follows it). The
   * open is still non-blocking and only a regular file is read. Default: a symlink is refused.
   */
  follow?: boolean;
}

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
    hint: 'Memory Studio reads only plain files; remove or move this entry if it does not belong there.',
  });

/** The failure for a file past `capBytes`, when the caller has no wording of its own. */
export const tooBigFailure = (label: string, capBytes: number) => (size: number) =>
  new StudioFailure('Unsupported', `${label} is ${size} bytes, more than the ${capBytes} bytes Memory Studio reads from it.`, {
    path: label,
    hint: 'Make it smaller or move it away; nothing was changed.',
  });

/** The errno code stays on the failure, so a caller can still tell a missing file (ENOENT) from a refusal. */
const withCode = (failure: StudioFailure, code: string) => Object.assign(failure, { code });

/** An open's error in words: a symlink (ELOOP with O_NOFOLLOW), a socket (ENXIO), a missing file; others as they are. */
function openFailure(error: unknown, label: string, options: ReadOptions): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ELOOP' && !options.follow)
    return withCode(
      new StudioFailure('Unsupported', `${label} is a symlink; Memory Studio never follows symlinks here.`, { path: label }),
      code,
    );
  if (code === 'ENXIO') return withCode(notRegular(label, 'a socket'), code);
  if (code === 'ENOENT')
    return withCode(
      new StudioFailure('NotFound', `${label} does not exist any more.`, {
        path: label,
        hint: 'It may have been removed meanwhile; refresh and try again.',
      }),
      code,
    );
  return error;
}

/** What was opened, refused; a folder keeps fs's own code (EISDIR) for callers that take it as "no file here". */
const refusal = (label: string, info: Stats) =>
  info.isDirectory() ? withCode(notRegular(label, 'a folder'), 'EISDIR') : notRegular(label, describeFileType(info));

const flagsFor = (options: ReadOptions) => (options.follow ? NONBLOCKING_READ : READ_FLAGS);

/** A regular file opened for reading (never blocking), with its fstat; anything else is closed and refused. */
export interface OpenedFile {
  fd: number;
  info: Stats;
}

/** Opens `path` for reading if it is a regular file; the caller closes `fd` (`closeQuietly`). `label` names it in messages. */
export async function openRegularFile(path: string, label: string, options: ReadOptions = {}): Promise<OpenedFile> {
  let fd: number;
  try {
    fd = await openFd(path, flagsFor(options));
  } catch (error) {
    throw openFailure(error, label, options);
  }
  try {
    const info = await fstatFd(fd);
    if (!info.isFile()) throw refusal(label, info);
    return { fd, info };
  } catch (error) {
    await closeQuietly(fd);
    throw error;
  }
}

/** `openRegularFile`, synchronously (the index's and the import's batched reads). */
export function openRegularFileSync(path: string, label: string, options: ReadOptions = {}): OpenedFile {
  let fd: number;
  try {
    fd = openSync(path, flagsFor(options));
  } catch (error) {
    throw openFailure(error, label, options);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw refusal(label, info);
    return { fd, info };
  } catch (error) {
    closeQuietlySync(fd);
    throw error;
  }
}

/** Closes a descriptor read from; a failing close (EIO on a network mount) never replaces what the read found. */
export function closeQuietly(fd: number): Promise<void> {
  return closeFd(fd).catch(() => undefined);
}

/** `closeQuietly`, synchronously. */
export function closeQuietlySync(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // As closeQuietly: the read's own outcome stands.
  }
}

export interface RegularFile {
  bytes: Buffer;
  size: number;
  mtimeMs: number;
  /** The fstat of the open file (inode, exact mtime) for callers that key caches on it. */
  info: Stats;
}

/**
 * Collects the reads of one file: its size as fstat gave it (as fs.readFile reads: a file growing meanwhile is read
 * to that size, never past the cap), or, for a file that says 0 bytes, on to its end, capped.
 */
class Collector {
  readonly chunks: Buffer[] = [];
  total = 0;
  constructor(
    private readonly capBytes: number,
    private readonly tooBig: (size: number) => Error,
  ) {}
  /** The next buffer to read into (the whole known size first, then 64 KiB at a time). */
  next(info: Stats): Buffer {
    return Buffer.allocUnsafe(this.chunks.length === 0 ? Math.max(info.size, 1) : 64 * 1024);
  }
  /** Keeps what was read; false once the file is read. */
  add(buffer: Buffer, bytesRead: number, info: Stats): boolean {
    if (bytesRead === 0) return false;
    this.total += bytesRead;
    if (this.total > this.capBytes) throw this.tooBig(this.total);
    this.chunks.push(bytesRead === buffer.length ? buffer : buffer.subarray(0, bytesRead));
    return info.size === 0 || this.total < info.size;
  }
  result(info: Stats): RegularFile {
    const only = this.chunks.length === 1 ? this.chunks[0] : undefined;
    const bytes = only ?? Buffer.concat(this.chunks, this.total);
    return { bytes, size: this.total, mtimeMs: Math.round(info.mtimeMs), info };
  }
}

/**
 * The bytes of `path` if it is a regular file of at most `capBytes`; `tooBig(size)` makes the error for a larger
 * one (checked on the open file before reading). `label` names the file in messages.
 */
export async function readRegularFile(
  path: string,
  label: string,
  capBytes: number,
  tooBig: (size: number) => Error = tooBigFailure(label, capBytes),
  options: ReadOptions = {},
): Promise<RegularFile> {
  const opened = await openRegularFile(path, label, options);
  try {
    return await readOpenedFile(opened, capBytes, tooBig);
  } finally {
    await closeQuietly(opened.fd);
  }
}

/** The whole of a file `openRegularFile` opened (the caller closes it), at most `capBytes`. */
export async function readOpenedFile({ fd, info }: OpenedFile, capBytes: number, tooBig: (size: number) => Error): Promise<RegularFile> {
  if (info.size > capBytes) throw tooBig(info.size);
  const collector = new Collector(capBytes, tooBig);
  for (;;) {
    const buffer = collector.next(info);
    const { bytesRead } = await readFd(fd, buffer, 0, buffer.length, null);
    if (!collector.add(buffer, bytesRead, info)) break;
  }
  return collector.result(info);
}

/** `readRegularFile`, synchronously: thousands of small files without a thread-pool round trip each. */
export function readRegularFileSync(
  path: string,
  label: string,
  capBytes: number,
  tooBig: (size: number) => Error = tooBigFailure(label, capBytes),
  options: ReadOptions = {},
): RegularFile {
  const opened = openRegularFileSync(path, label, options);
  try {
    return readOpenedFileSync(opened, capBytes, tooBig);
  } finally {
    closeQuietlySync(opened.fd);
  }
}

/** `readOpenedFile`, synchronously. */
export function readOpenedFileSync({ fd, info }: OpenedFile, capBytes: number, tooBig: (size: number) => Error): RegularFile {
  if (info.size > capBytes) throw tooBig(info.size);
  const collector = new Collector(capBytes, tooBig);
  for (;;) {
    const buffer = collector.next(info);
    if (!collector.add(buffer, readSync(fd, buffer, 0, buffer.length, null), info)) break;
  }
  return collector.result(info);
}

/** The first `maxBytes` of a regular file (a header, a first line): one read, never blocking. */
export async function readRegularHead(path: string, label: string, maxBytes: number, options: ReadOptions = {}): Promise<Buffer> {
  const { fd, info } = await openRegularFile(path, label, options);
  try {
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes, Math.max(info.size, 1)));
    const { bytesRead } = await readFd(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await closeQuietly(fd);
  }
}
