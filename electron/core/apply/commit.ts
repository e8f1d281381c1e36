// The commit step: rename every temp over its target (or move a deleted file to the trash), undoing all on failure.
import { unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { StudioFailure } from '../platform/errors';
import { faultError, fsyncDir, moveFile, renameDurable, writeFileAtomic } from '../platform/atomic-write';
import { fileFailure } from './file-errors';
import type { PreparedFile } from './prepare';
import type { FaultInjection } from './types';

async function commitOne(p: PreparedFile): Promise<void> {
  if (p.temp !== null) {
    await renameDurable(p.temp, p.target);
    p.temp = null;
  } else if (p.trash !== null && p.before !== null) {
    await moveFile(p.target, p.trash);
  }
}

/** Puts one committed file back to its base bytes (atomically again), so a failed apply leaves nothing partial. */
async function undoOne(p: PreparedFile): Promise<void> {
  if (p.file.content === null) {
    if (p.trash !== null && p.before !== null) await moveFile(p.trash, p.target);
    return;
  }
  if (p.before === null) {
    await unlink(p.target);
    await fsyncDir(dirname(p.target));
  } else {
    await writeFileAtomic(p.target, p.before, p.mode);
  }
}

/** Returns the files it could not put back (empty when the undo is complete). */
async function undoCommitted(committed: readonly PreparedFile[]): Promise<string[]> {
  const failed: string[] = [];
  for (const p of [...committed].reverse()) {
    await undoOne(p).catch(() => failed.push(p.file.relPath));
  }
  return failed;
}

/**
 * Commits in plan order. `stillOwned` is asked before every step: once Codex's lease is lost no further write
 * happens. On failure, what was committed is undone and the error names the file; `onUndoFailed` is told when
 * some file could not be put back (the caller then treats files as changed).
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
      await commitOne(p);
      committed.push(p);
      faults?.afterRename?.(index);
    } catch (error) {
      const notUndone = await undoCommitted(committed);
      if (notUndone.length > 0) onUndoFailed(notUndone);
      const state =
        notUndone.length === 0
          ? 'Nothing was changed.'
          : `These files could not be put back and keep the proposed content: ${notUndone.join(', ')}.`;
      throw fileFailure(
        error,
        { relPath: p.file.relPath, root: p.file.root, dir: dirname(p.target) },
        p.file.content === null ? 'move to the trash' : 'replace',
        state,
      );
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
