// Failures inside core, and their translation into the contract's closed set of error kinds.
import type { ErrorKind, FaultKind, StudioError } from '../../../shared/result';
import { errorCode, errorDetail, fullWords, storageTrouble, troubleAt, writeTroubleWords } from './storage-faults';

/** A failure core expects and can explain; anything else is reported as `Internal`. */
export class StudioFailure extends Error {
  readonly kind: ErrorKind;
  readonly path?: string;
  readonly hint?: string;
  /** Set when this is a fault of the machine or of Codex's files (a full disk, a damaged Codex DB), never a bug. */
  readonly fault?: FaultKind;

  constructor(kind: ErrorKind, message: string, options: { path?: string; hint?: string; cause?: unknown; fault?: FaultKind } = {}) {
    super(message, { cause: options.cause });
    this.name = 'StudioFailure';
    this.kind = kind;
    this.path = options.path;
    this.hint = options.hint;
    if (options.fault) this.fault = options.fault;
  }
}

const errnoMessages: Record<string, { kind: ErrorKind; message: string; hint?: string }> = {
  ENOENT: { kind: 'NotFound', message: 'does not exist', hint: 'It may have been moved or deleted; refresh the list.' },
  ENOTDIR: { kind: 'NotFound', message: 'is not a folder' },
  EISDIR: { kind: 'Invalid', message: 'is a folder, not a file' },
  EACCES: { kind: 'Unsupported', message: 'cannot be read: permission denied', hint: 'Check the file permissions.' },
  EPERM: { kind: 'Unsupported', message: 'cannot be accessed: operation not permitted', hint: 'Check the file permissions.' },
  ENOSPC: { kind: 'Unsupported', message: 'cannot be written: the disk is full', hint: 'Free some disk space and try again.' },
  EDQUOT: {
    kind: 'Unsupported',
    message: 'cannot be written: the disk quota is exhausted',
    hint: 'Free some space in your quota and try again.',
  },
  EFBIG: {
    kind: 'Unsupported',
    message: 'cannot be written: it would pass the size limit of this process or file system (EFBIG, e.g. `ulimit -f`)',
    hint: 'Raise the limit or free space, then try again.',
  },
  EROFS: { kind: 'Unsupported', message: 'is on a read-only file system' },
  EIO: { kind: 'Unsupported', message: 'could not be read or written: the disk reported an input/output error', hint: 'Check the disk.' },
  EMFILE: { kind: 'Busy', message: 'cannot be opened: too many open files', hint: 'Try again in a moment.' },
  EBUSY: { kind: 'Busy', message: 'is busy', hint: 'Try again in a moment.' },
  ELOOP: { kind: 'Invalid', message: 'is a symlink loop' },
};

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);

/**
 * A SQLite failure no boundary classified (the boundaries name the file: `dataFolderFailure`, the Codex DB's
 * `codexDbFailure`): still a fault in words, never "Unexpected error".
 */
function sqliteFallback(error: unknown, subject: string | undefined): StudioError | null {
  const trouble = storageTrouble(error);
  if (!trouble || !errorCode(error).startsWith('SQLITE')) return null;
  const what = subject ?? 'A database';
  const detail = errorDetail(error);
  if (trouble === 'full')
    return {
      kind: 'Unsupported',
      message: `${what} cannot be written: the disk is full (${detail}).`,
      path: subject,
      hint: 'Free some disk space and try again.',
      fault: 'disk-full',
    };
  if (trouble === 'locked')
    return { kind: 'Busy', message: `${what} is locked by another process (${detail}).`, path: subject, hint: 'Try again in a moment.' };
  return {
    kind: 'Unsupported',
    message: `${what} cannot be used (${detail}).`,
    path: subject,
    hint: 'Check the file and the disk it is on.',
  };
}

/** Turns any thrown value into contract data; `subject` names the file or folder the operation was on. */
export function toStudioError(error: unknown, subject?: string): StudioError {
  if (error instanceof StudioFailure) {
    return { kind: error.kind, message: error.message, path: error.path, hint: error.hint, ...(error.fault ? { fault: error.fault } : {}) };
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const known = code ? errnoMessages[code] : undefined;
  if (known) {
    const what = subject ?? (error as NodeJS.ErrnoException).path ?? 'The file';
    const fault: FaultKind | undefined = code && FULL_CODES.has(code) ? 'disk-full' : undefined;
    return { kind: known.kind, message: `${what} ${known.message}.`, path: subject, hint: known.hint, ...(fault ? { fault } : {}) };
  }
  const sqlite = sqliteFallback(error, subject);
  if (sqlite) return sqlite;
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'Internal', message: `Unexpected error: ${message}`, path: subject };
}

/**
 * A failed write (or open for writing) of `path` in Memory Studio's data folder, for a storage reason: `what` names
 * it ("Memory Studio's Studio DB"), the message says why (a full disk, read-only, permissions, a failing disk), the
 * hint what to do. Null for anything else, which the caller rethrows as it is.
 */
export function dataFolderFailure(error: unknown, path: string, what: string): StudioFailure | null {
  if (error instanceof StudioFailure) return error;
  const trouble = troubleAt(error, path);
  if (trouble === 'full') {
    return new StudioFailure('Unsupported', `${what} (${path}) could not be written: ${fullWords(error)}.`, {
      path,
      fault: 'disk-full',
      cause: error,
      hint: 'Free some space on that disk (or choose another data folder with --data-dir or MEMORY_STUDIO_DATA), then try again.',
    });
  }
  if (trouble === 'read-only' || trouble === 'denied' || trouble === 'io' || trouble === 'cannot-open') {
    return new StudioFailure('Unsupported', `${what} (${path}) could not be written: ${writeTroubleWords(trouble, error)}.`, {
      path,
      fault: 'data-unwritable',
      cause: error,
      hint: "Check the data folder's disk and permissions, or choose another data folder with --data-dir or MEMORY_STUDIO_DATA.",
    });
  }
  return null;
}

/** A request that fails the contract's input, in words (a malformed id typed on the command line), not a zod dump. */
export function invalidRequest(channel: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return `Invalid request for ${channel}: ${issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}.`;
}

/** The failure of work whose caller gave up (its signal aborted): the signal's own StudioFailure reason, else Cancelled. */
export const cancelledFailure = (signal?: AbortSignal): Error =>
  signal?.reason instanceof StudioFailure
    ? signal.reason
    : new StudioFailure('Cancelled', 'Cancelled.', { hint: 'Nothing was changed; start it again when you are ready.' });
