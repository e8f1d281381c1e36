// Hunks of large file pairs on the shared worker pool; small ones (the common case) stay on the calling thread.
import type { Hunk } from '../../../shared/review';
import { runTask } from '../workers/pool';
import { computeFileHunks } from './hunks';

/** Above this many characters (both sides together) the diff moves off the calling thread (about 20 ms of diffing). */
export const OFF_THREAD_CHARS = 256 * 1024;

export async function computeFileHunksAsync(base: string | null, proposed: string | null): Promise<Hunk[]> {
  const size = (base?.length ?? 0) + (proposed?.length ?? 0);
  if (size <= OFF_THREAD_CHARS || base === null || proposed === null) return computeFileHunks(base, proposed);
  return runTask('hunks', { base, proposed });
}

/** The pool task: one file pair's hunks. */
export function hunksTask(input: { base: string | null; proposed: string | null }): Hunk[] {
  return computeFileHunks(input.base, input.proposed);
}
