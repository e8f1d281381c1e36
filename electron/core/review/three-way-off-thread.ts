// Three-way merges of large files on the shared worker pool; small ones (the common case) stay on the calling thread.
import { runTask } from '../runtime/pool';
import { OFF_THREAD_CHARS } from './hunks-off-thread';
import { type ThreeWay, threeWay } from './three-way';

/** `threeWay` off the calling thread for large files (`masked`: the stored texts' masked lines, see `threeWay`). */
export async function threeWayAsync(
  base: string | null,
  theirs: string | null,
  ours: string | null,
  masked?: ReadonlyMap<string, string>,
): Promise<ThreeWay> {
  const size = (base?.length ?? 0) + (theirs?.length ?? 0) + (ours?.length ?? 0);
  if (size <= OFF_THREAD_CHARS) return threeWay(base, theirs, ours, masked);
  return runTask('three-way', { base, theirs, ours, masked });
}

/** The pool task: the three-way merge of one large file, so rebasing a 5 MB MEMORY.md never stalls the main loop. */
export function threeWayTask(input: {
  base: string | null;
  theirs: string | null;
  ours: string | null;
  masked?: ReadonlyMap<string, string>;
}): ThreeWay {
  return threeWay(input.base, input.theirs, input.ours, input.masked);
}
