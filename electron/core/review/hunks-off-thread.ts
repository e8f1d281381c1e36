// Hunks and block outlines of large file pairs on the shared worker pool; small ones (the common case) stay on the calling thread.
import type { FileBlocks, Hunk } from '../../../shared/review';
import { runTask } from '../runtime/pool';
import { type BlockFile, computeFileBlocks, computeReviewHunks, type SecretLines } from './review-hunks';

/** Above this many characters (both sides together) the diff moves off the calling thread (about 20 ms of diffing). */
export const OFF_THREAD_CHARS = 256 * 1024;

const sizeOf = (base: string | null, proposed: string | null) => (base?.length ?? 0) + (proposed?.length ?? 0);

/** `computeReviewHunks` off the calling thread for large files (`secrets`: the stored texts' masked lines). */
export async function computeFileHunksAsync(
  base: string | null,
  proposed: string | null,
  file?: BlockFile,
  secrets?: SecretLines,
): Promise<Hunk[]> {
  if (sizeOf(base, proposed) <= OFF_THREAD_CHARS || base === null || proposed === null)
    return computeReviewHunks(base, proposed, file, secrets);
  return runTask('hunks', { base, proposed, file, secrets });
}

/** `computeFileBlocks` off the calling thread for large files. */
export async function computeFileBlocksAsync(
  base: string | null,
  proposed: string | null,
  file: BlockFile,
  hunks: readonly Hunk[],
): Promise<FileBlocks> {
  if (sizeOf(base, proposed) <= OFF_THREAD_CHARS) return computeFileBlocks(base, proposed, file, hunks);
  return runTask('blocks', { base, proposed, file, hunks: [...hunks] });
}

/** The pool task: one file pair's hunks. */
export function hunksTask(input: { base: string | null; proposed: string | null; file?: BlockFile; secrets?: SecretLines }): Hunk[] {
  return computeReviewHunks(input.base, input.proposed, input.file, input.secrets);
}

/** The pool task: one file pair's block outline. */
export function blocksTask(input: { base: string | null; proposed: string | null; file: BlockFile; hunks: Hunk[] }): FileBlocks {
  return computeFileBlocks(input.base, input.proposed, input.file, input.hunks);
}
