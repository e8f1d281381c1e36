// The commit step: rename every temp over its target (or move a deleted file to the trash), undoing all on failure.
import { unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StudioFailure } from '../platform/errors';
import { faultError, fsyncDir, moveFile, renameDurable, writeFileAtomic } from '../platform/atomic-write';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { fileFailure } from './file-errors';
import { killPoint } from './kill-point';
import { sha256 } from './journal';
import type { PreparedFile } from './prepare';
import type { FaultInjection } from './types';

/** What sits at `target` now: its SHA-256, null when absent, 'other' for anything but a regular file (never followed). */
async function hashNow(target: string): Promise<string | null | 'other'> {
  try {
    return sha256((await readRegularFile(target, target, NO_CAP)).bytes);
  } catch (error) {
    if (error instanceof StudioFailure) return error.kind === 'NotFound' ? null : 'other';
    throw error;
  }
}

/**
 * The last base check, under the lock and right before this file's rename: an editor (or a person) has no lock to
 * respect, so a save made after `checkBases` would otherwise be renamed over and lost. A change is a Conflict.
 */
async function checkStillAtBase(p: PreparedFile): Promise<void> {
  const now = await hashNow(p.target);
  if (now === p.file.baseSha256) return;
  const how =
    now === null
      ? 'it was removed'
      : now === 'other'
        ? 'it is no longer a regular file'
        : p.file.baseSha256 === null
          ? 'it was created'
          : 'it was edited';
  throw new LateChange(`${p.file.relPath} in ${p.file.root} changed while the proposal was being applied (${how})`);
}

/** A late outside change found by checkStillAtBase: reported as a Conflict once what was committed is undone. */
class LateChange extends Error {}

async function commitOne(p: PreparedFile): Promise<void> {
  await checkStillAtBase(p);
  if (p.temp !== null) {
    await renameDurable(p.temp, p.target);
    p.temp = null;
  } else if (p.trash !== null && p.before !== null) {
    await moveFile(p.target, p.trash);
  }
}

/**
 * Puts one committed file back to its base bytes (atomically again), so a failed apply leaves nothing partial. A
 * file that no longer holds what this Apply put there was changed by someone since: it is left as it is (false).
 */
async function undoOne(p: PreparedFile): Promise<boolean> {
  if (p.file.content === null) {
    if (p.trash === null || p.before === null) return true;
    if ((await hashNow(p.target)) !== null) return false;
    await moveFile(p.trash, p.target);
    return true;
  }
  if ((await hashNow(p.target)) !== p.targetSha256) return false;
  if (p.before === null) {
    await unlink(p.target);
    await fsyncDir(dirname(p.target));
  } else {
    await writeFileAtomic(p.target, p.before, p.mode);
  }
  return true;
}

/** Returns the files it could not put back (empty when the undo is complete). */
async function undoCommitted(committed: readonly PreparedFile[]): Promise<string[]> {
  const failed: string[] = [];
  for (const p of [...committed].reverse()) {
    const undone = await undoOne(p).catch(() => false);
    if (!undone) failed.push(p.file.relPath);
  }
  return failed;
}

function stateAfterUndo(notUndone: readonly string[]): string {
  return notUndone.length === 0
    ? 'Nothing was changed.'
    : `These files could not be put back and keep the proposed content: ${notUndone.join(', ')}.`;
}

/** The failure of one commit step, naming the file and saying what is left on disk. */
function stepFailure(error: unknown, p: PreparedFile, state: string): StudioFailure {
  if (error instanceof LateChange)
    return new StudioFailure('Conflict', `${error.message}; it was left as it is now. ${state}`, {
      path: p.file.relPath,
      hint: 'Review the difference between the proposal and the file on disk, then rebase the proposal onto the current content.',
    });
  return fileFailure(
    error,
    { relPath: p.file.relPath, root: p.file.root, dir: dirname(p.target) },
    p.file.content === null ? 'move to the trash' : 'replace',
    state,
  );
}

/**
 * Commits in plan order. `stillOwned` is asked before every step: once Codex's lease is lost no further write
 * happens; each target is checked to be still at its base right before its rename. On failure, what was committed
 * is undone and the error names the file; `onUndoFailed` is told when some file could not be put back (the caller
 * then treats files as changed).
 */
export async function commitAll(
  prepared: PreparedFile[],
  stillOwned: () => boolean,
  faults: FaultInjection | undefined,
  onUndoFailed: (files: string[]) => void,
  afterAll?: () => void,
): Promise<void> {
  const committed: PreparedFile[] = [];
  for (const [index, p] of prepared.entries()) {
    try {
      if (!stillOwned()) {
        throw new StudioFailure(
          'Locked',
          `Codex took its memory lock back while ${p.file.relPath} was being applied; Memory Studio stopped writing.`,
          {
            path: p.file.relPath,
            hint: 'Wait for Codex to finish consolidating, then apply again.',
          },
        );
      }
      if (faults?.failRenameAt === index) throw faultError('EIO', p.target);
      await faults?.beforeRename?.(index);
      await commitOne(p);
      committed.push(p);
      killPoint(`renamed-${index}`);
      faults?.afterRename?.(index);
    } catch (error) {
      const notUndone = await undoCommitted(committed);
      if (notUndone.length > 0) onUndoFailed(notUndone);
      throw stepFailure(error, p, stateAfterUndo(notUndone));
    }
  }
  if (afterAll) await runAfterAll(committed, afterAll, onUndoFailed);
}

/** The step after the renames (Codex-DB changes): when it throws, the files go back to their bases as for a failed rename. */
async function runAfterAll(
  committed: readonly PreparedFile[],
  afterAll: () => void,
  onUndoFailed: (files: string[]) => void,
): Promise<void> {
  try {
    afterAll();
  } catch (error) {
    const notUndone = await undoCommitted(committed);
    if (notUndone.length > 0) onUndoFailed(notUndone);
    if (committed.length === 0) throw error;
    const failure =
      error instanceof StudioFailure
        ? error
        : new StudioFailure('Internal', error instanceof Error ? error.message : String(error), { cause: error });
    const state =
      notUndone.length === 0
        ? 'The files of this proposal were put back as they were.'
        : `These files could not be put back and keep the proposed content: ${notUndone.join(', ')}.`;
    throw new StudioFailure(failure.kind, `${failure.message} ${state}`, {
      path: failure.path,
      hint: failure.hint,
      cause: error,
      fault: failure.fault,
    });
  }
}
