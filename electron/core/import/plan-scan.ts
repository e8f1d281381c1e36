// The plan's CPU work, off the main loop and on every core: each source file's secret spans, and the lint of the
// files the import would write. A plan of 10,000 files spent ~0.8 s here, in one thread, the app's main loop included.
import type { PlannedLint } from '../../../shared/import';
import type { SecretCandidate } from '../lint/secret-rules';
import { performance } from 'node:perf_hooks';
import { nextTurn } from '../platform/next-turn';
import { slicesByWeight } from '../platform/slices';
import { cancelledFailure, runInThread, runTask } from '../runtime/pool';
import type { LintableWrite } from './plan-lint';

/** Slices per call: twice the usual two workers, so one slow slice does not leave a core idle for long. */
const SLICES = 4;
/** Below this many characters in all, a worker's start costs more than it saves: the work stays in this thread. */
const IN_THREAD_CHARS = 256 * 1024;
/** How long the plan's own work runs before a shared loop gets a turn. */
const TURN_MS = 20;

/** Where the work runs: on the pool for a shared loop with enough to do, else in this thread (see ImportEnv.sharedLoop). */
export interface ScanPlace {
  sharedLoop?: boolean;
  signal?: AbortSignal;
}

const runnerFor = (place: ScanPlace, total: number) => (place.sharedLoop && total >= IN_THREAD_CHARS ? runTask : runInThread);

/** Each text's secret spans, in order. */
export async function secretSpansOf(texts: readonly string[], place: ScanPlace): Promise<SecretCandidate[][]> {
  const { slices, total } = slicesByWeight(texts, (text) => text.length, SLICES);
  const run = runnerFor(place, total);
  return (await Promise.all(slices.map((slice) => run('secret-spans-many', { texts: slice }, { signal: place.signal })))).flat();
}

/** The lint of the planned Markdown writes, as lintPlannedWrites says it, in the plan's order. */
export async function lintPlannedWritesOf(writes: readonly LintableWrite[], place: ScanPlace): Promise<PlannedLint[]> {
  const markdown = writes
    .filter((w) => w.content !== null && w.relPath.endsWith('.md'))
    .map(({ version, relPath, projectKey, content }) => ({ version, relPath, projectKey, content }));
  const { slices, total } = slicesByWeight(markdown, (w) => w.content?.length ?? 0, SLICES);
  const run = runnerFor(place, total);
  return (await Promise.all(slices.map((slice) => run('plan-lint', { writes: slice }, { signal: place.signal })))).flat();
}

/** Turns of a shared loop: `maybe()` lets other work in once ~20 ms have passed since the last turn, and stops for a caller who left. */
export function turnsFor(place: ScanPlace): { maybe: () => Promise<void> } {
  let since = performance.now();
  return {
    maybe: async () => {
      if (!place.sharedLoop || performance.now() - since <= TURN_MS) return;
      await nextTurn();
      if (place.signal?.aborted) throw cancelledFailure(place.signal);
      since = performance.now();
    },
  };
}

/** `step` of each item, in order; on a shared loop, other work gets a turn every ~20 ms, and a caller who gave up stops it. */
export async function inTurns<T, R>(
  items: readonly T[],
  place: ScanPlace,
  step: (item: T, index: number) => R,
  turns = turnsFor(place),
): Promise<R[]> {
  const out: R[] = [];
  for (const [index, item] of items.entries()) {
    out.push(step(item, index));
    await turns.maybe();
  }
  return out;
}
