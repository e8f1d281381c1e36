// Work cut into a few runs of about equal weight, in order: the pool's callers hand each run to a worker.

/** `items` cut into at most about `count` runs whose weights are about equal, in order (none empty). */
export function slicesByWeight<T>(items: readonly T[], weight: (item: T) => number, count: number): { slices: T[][]; total: number } {
  const total = items.reduce((n, item) => n + weight(item), 0);
  const per = Math.max(1, Math.ceil(total / count));
  const slices: T[][] = [];
  let current: T[] = [];
  let sum = 0;
  for (const item of items) {
    current.push(item);
    sum += weight(item);
    if (sum >= per) {
      slices.push(current);
      current = [];
      sum = 0;
    }
  }
  if (current.length > 0) slices.push(current);
  return { slices, total };
}
