// Failures inside core, and their translation into the contract's closed set of error kinds.
import type { ErrorKind, StudioError } from '../../../shared/result';

/** A failure core expects and can explain; anything else is reported as `Internal`. */
export class StudioFailure extends Error {
  readonly kind: ErrorKind;
  readonly path?: string;
  readonly hint?: string;

  constructor(kind: ErrorKind, message: string, options: { path?: string; hint?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'StudioFailure';
    this.kind = kind;
    this.path = options.path;
    this.hint = options.hint;
  }
}

const errnoMessages: Record<string, { kind: ErrorKind; message: string; hint?: string }> = {
  ENOENT: { kind: 'NotFound', message: 'does not exist', hint: 'It may have been moved or deleted; refresh the list.' },
  ENOTDIR: { kind: 'NotFound', message: 'is not a folder' },
  EISDIR: { kind: 'Invalid', message: 'is a folder, not a file' },
  EACCES: { kind: 'Unsupported', message: 'cannot be read: permission denied', hint: 'Check the file permissions.' },
  EPERM: { kind: 'Unsupported', message: 'cannot be accessed: operation not permitted', hint: 'Check the file permissions.' },
  ENOSPC: {
    kind: 'Internal',
    message: 'cannot be written: the disk is full',
    hint: 'Free some disk space and try again; nothing was changed.',
  },
  EROFS: { kind: 'Unsupported', message: 'is on a read-only file system' },
  EMFILE: { kind: 'Busy', message: 'cannot be opened: too many open files', hint: 'Try again in a moment.' },
  EBUSY: { kind: 'Busy', message: 'is busy', hint: 'Try again in a moment.' },
  ELOOP: { kind: 'Invalid', message: 'is a symlink loop' },
};

/** Turns any thrown value into contract data; `subject` names the file or folder the operation was on. */
export function toStudioError(error: unknown, subject?: string): StudioError {
  if (error instanceof StudioFailure) {
    return { kind: error.kind, message: error.message, path: error.path, hint: error.hint };
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const known = code ? errnoMessages[code] : undefined;
  if (known) {
    const what = subject ?? (error as NodeJS.ErrnoException).path ?? 'The file';
    return { kind: known.kind, message: `${what} ${known.message}.`, path: subject, hint: known.hint };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'Internal', message: `Unexpected error: ${message}`, path: subject };
}

/** A request that fails the contract's input, in words (a malformed id typed on the command line), not a zod dump. */
export function invalidRequest(channel: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return `Invalid request for ${channel}: ${issues.map((i) => `${i.path.join('.') || 'input'}: ${i.message}`).join('; ')}.`;
}
