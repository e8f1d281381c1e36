// Turns an OS error on one file of a plan into a StudioFailure that names the file and says what to do.
import { StudioFailure, toStudioError } from '../platform/errors';

const reasons: Record<string, { why: string; hint: (dir: string) => string }> = {
  ENOSPC: { why: 'the disk is full', hint: () => 'Free some disk space, then apply again.' },
  EDQUOT: { why: 'the disk quota is exhausted', hint: () => 'Free some space in your quota, then apply again.' },
  EFBIG: {
    why: 'the file would pass the size limit of this process or file system (EFBIG)',
    hint: () => 'Raise the limit (ulimit -f) or free space, then apply again.',
  },
  EACCES: { why: 'permission denied', hint: (dir) => `Make sure you can write to ${dir}, then apply again.` },
  EPERM: { why: 'the operation is not permitted', hint: (dir) => `Make sure you can write to ${dir}, then apply again.` },
  EROFS: {
    why: 'the memory folder is on a read-only file system',
    hint: () => 'Remount the disk read-write (or copy the home elsewhere), then apply again.',
  },
  EIO: {
    why: 'the disk reported an input/output error',
    hint: () => 'Check the disk (it may be failing or disconnected), then apply again.',
  },
};

/** `action` is a verb phrase ("write", "replace", "move to the trash"); `state` says what is left on disk. */
export function fileFailure(
  error: unknown,
  what: { relPath: string; root: string; dir: string },
  action: string,
  state: string,
): StudioFailure {
  if (error instanceof StudioFailure) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code ?? '';
  const known = reasons[code];
  const why = known?.why ?? (error instanceof Error ? error.message : String(error));
  const { kind, fault } = toStudioError(error);
  return new StudioFailure(kind, `Could not ${action} ${what.relPath} in ${what.root}: ${why}. ${state}`, {
    path: what.relPath,
    fault,
    hint: known?.hint(what.dir) ?? 'Try again; if it keeps failing, check the disk and the folder permissions.',
    cause: error,
  });
}
