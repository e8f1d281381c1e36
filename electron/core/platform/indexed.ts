// Reads that the caller's own bounds make safe, stated without a cast under `noUncheckedIndexedAccess`.
import { StudioFailure } from './errors';

/**
 * `items[index]` where the caller has put `index` in range (a loop bound, a length check just above). A miss is a bug
 * in that bound, reported as Internal; `T` cannot include `undefined`, so a real hole never reads as one.
 */
export function itemAt<T extends NonNullable<unknown> | null>(items: ArrayLike<T>, index: number): T {
  const item = items[index];
  if (item === undefined) {
    throw new StudioFailure('Internal', `An index kept in range by its caller was not: ${index} of ${items.length} items.`);
  }
  return item;
}

/**
 * Capture group `n` of a match whose pattern makes that group take part in every match (it is not optional and not
 * in an alternative). A miss means the pattern and its reader disagree, reported as Internal; the text is not quoted.
 */
export function group(match: RegExpMatchArray | RegExpExecArray, n: number): string {
  const text = match[n];
  if (text === undefined) {
    throw new StudioFailure('Internal', `Capture group ${n} of a pattern that always sets it took no part in the match.`);
  }
  return text;
}
