// Appending one list to another without spreading it into arguments: `push(...list)` throws past about 120,000 items.
/**
 * `target.push(...items)` passes every item as an argument, so a list read from a file or a folder (150,000 skipped
 * files, a line with 200,000 matches) ends in "Maximum call stack size exceeded". This appends in a loop.
 */
export function appendAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}
