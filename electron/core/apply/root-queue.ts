// In-process queue per memory root: two async chains in one process never interleave their writes to a root.

const tails = new Map<string, Promise<void>>();

/** Waits for every earlier holder of `key`, then returns the function that lets the next one in. */
async function acquireOne(key: string): Promise<() => void> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => mine);
  tails.set(key, tail);
  await previous;
  return () => {
    release();
    // Forget the key once nobody queued behind us, so the map does not grow with every root ever seen.
    if (tails.get(key) === tail) tails.delete(key);
  };
}

/**
 * Takes the queue of every key, always in sorted order so two chains wanting overlapping sets cannot deadlock.
 * Returns one release function that lets all of them go.
 */
export async function acquireRootQueues(keys: readonly string[]): Promise<() => void> {
  const releases: (() => void)[] = [];
  for (const key of [...new Set(keys)].sort()) releases.push(await acquireOne(key));
  return () => {
    for (const release of releases.reverse()) release();
  };
}
