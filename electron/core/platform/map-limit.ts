// Async work over a list with a bound on how much is in flight, results in the list's order.

/**
 * Runs `fn` over `items` with at most `limit` in flight, keeping order. After a failure no new item starts; the ones in
 * flight finish, and the failure of the lowest index is thrown: the same error a one-at-a-time loop would throw.
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  // One iterator shared by the workers: each takes the next item as it frees up.
  const queue = items.entries();
  const failure: { first: { index: number; error: unknown } | null } = { first: null };
  const worker = async (): Promise<void> => {
    for (const [i, item] of queue) {
      if (failure.first) return;
      try {
        out[i] = await fn(item, i);
      } catch (error) {
        // Read again: another worker may have failed while this one waited.
        const earlier = failure.first as { index: number } | null;
        if (!earlier || i < earlier.index) failure.first = { index: i, error };
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure.first) throw failure.first.error;
  return out;
}
