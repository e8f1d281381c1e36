// mapLimit: order kept, at most `limit` in flight, and after a failure nothing new starts and the lowest failing
// index's error is thrown (what a one-at-a-time loop throws), whichever failed first in time.
import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../electron/core/platform/map-limit';

const later = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('mapLimit', () => {
  it('keeps the order of the items and never has more than the limit in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const out = await mapLimit([5, 1, 4, 2, 3], 2, async (n, i) => {
      most = Math.max(most, ++inFlight);
      for (let k = 0; k < n; k++) await later();
      inFlight--;
      return `${i}:${n}`;
    });
    expect(out).toEqual(['0:5', '1:1', '2:4', '3:2', '4:3']);
    expect(most).toBe(2);
  });

  it('starts nothing after a failure and throws the lowest index failing, not the first in time', async () => {
    const started: number[] = [];
    const run = mapLimit([0, 1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      started.push(n);
      if (n === 0) {
        // Fails last in time, after item 2 has failed.
        for (let k = 0; k < 5; k++) await later();
        throw new Error('item 0');
      }
      if (n === 2) throw new Error('item 2');
      await later();
      return n;
    });
    await expect(run).rejects.toThrow('item 0');
    // 0, 1 and 2 start at once; 2 fails before 1 frees its worker, so nothing past 2 ever starts.
    expect(started.sort()).toEqual([0, 1, 2]);
  });

  it('returns an empty list for no items', async () => {
    expect(await mapLimit([], 4, async () => 1)).toEqual([]);
  });
});
