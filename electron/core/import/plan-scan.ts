// The plan's CPU work, off the main loop and on every core: each source file's secret spans, and the lint of the
// files the import would write. A plan of 10,000 files spent ~0.8 s here, in one thread, the app's main loop included.
import type { PlannedLint } from '../../../shared/import';
import type { SecretCandidate } from '../lint/secret-rules';
import { mapLimit } from '../platform/map-limit';
import { slicesByWeight } from '../platform/slices';
import { turnClock, turnIfDue } from '../platform/turn-clock';
import { runInThread, runTask } from '../runtime/pool';
import type { LintableWrite } from './plan-lint';

/** Slices per call at least: twice the usual two workers, so one slow slice does not leave a core idle for long. */
const SLICES = 4;
/**
 * A slice's texts at most, in characters: posting a slice copies its texts on the loop that posts it, and four slices of
 * a 10,000-file plan held the app's loop for ~40 ms in one turn. The pool posts the next slice as a worker frees.
 */
const SLICE_CHARS = 1 << 20;
/** Below this many characters in all, a worker's start costs more than it saves: the work stays in this thread. */
const IN_THREAD_CHARS = 256 * 1024;

/** Where the work runs: on the pool for a shared loop with enough to do, else in this thread (see ImportEnv.sharedLoop). */
export interface ScanPlace {
  sharedLoop?: boolean;
  signal?: AbortSignal;
}

const onPool = (place: ScanPlace, total: number) => place.sharedLoop === true && total >= IN_THREAD_CHARS;

/** The items in slices of about equal weight, and where they run: a slice is cut smaller on the pool (SLICE_CHARS). */
function sliced<T>(items: readonly T[], weight: (item: T) => number, place: ScanPlace) {
  const total = items.reduce((n, item) => n + weight(item), 0);
  const pool = onPool(place, total);
  const count = pool ? Math.max(SLICES, Math.ceil(total / SLICE_CHARS)) : SLICES;
  return { slices: slicesByWeight(items, weight, count).slices, run: pool ? runTask : runInThread };
}

/**
 * `run` of each slice, results in the slices' order, at most SLICES in flight: the pool queues the rest behind them,
 * and a request's signal is not handed to more waiting tasks than that.
 */
const runSlices = async <T, R>(slices: readonly T[][], run: (slice: T[]) => Promise<R[]>): Promise<R[]> =>
  (await mapLimit(slices, SLICES, run)).flat();

/** Each text's secret spans, in order. */
export async function secretSpansOf(texts: readonly string[], place: ScanPlace): Promise<SecretCandidate[][]> {
  const { slices, run } = sliced(texts, (text) => text.length, place);
  return runSlices(slices, (slice) => run('secret-spans-many', { texts: slice }, { signal: place.signal }));
}

/** The lint of the planned Markdown writes, as lintPlannedWrites says it, in the plan's order. */
export async function lintPlannedWritesOf(
  writes: readonly LintableWrite[],
  place: ScanPlace,
  turns = turnsFor(place),
): Promise<PlannedLint[]> {
  // Only what the lint reads is posted to a worker; a shared loop gets its turns while 20,000 writes are looked at.
  const markdown: LintableWrite[] = [];
  for (const { version, relPath, projectKey, content } of writes) {
    if (content !== null && relPath.endsWith('.md')) markdown.push({ version, relPath, projectKey, content });
    await turns.maybe();
  }
  const { slices, run } = sliced(markdown, (w) => w.content?.length ?? 0, place);
  return runSlices(slices, (slice) => run('plan-lint', { writes: slice }, { signal: place.signal }));
}

/** Turns of a shared loop: `maybe()` lets other work in once TURN_MS (8 ms) have passed since the last turn, and stops for a caller who left. */
export function turnsFor(place: ScanPlace): { maybe: () => Promise<void> } {
  const clock = turnClock();
  return { maybe: () => (place.sharedLoop ? turnIfDue(clock, place.signal) : Promise.resolve()) };
}

/** `step` of each item, in order; on a shared loop, other work gets a turn every 8 ms, and a caller who gave up stops it. */
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
