// Searches in flight take turns on the event loop: between two of them, whatever else waits (a timer, another request)
// gets a turn, instead of all of them running back to back.
import { setImmediate } from 'node:timers';
import { describe, expect, it } from 'vitest';
import { inTurn } from '../../../electron/core/handlers/search-turns';

describe('inTurn', () => {
  it('runs each of several queued searches in a turn of the event loop of its own, in order', async () => {
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const seen: Array<[string, number]> = [];
    const runs = ['a', 'b', 'c', 'd'].map((name) => inTurn(() => seen.push([name, turn])));
    await Promise.all(runs);
    ticking = false;
    expect(seen.map(([name]) => name)).toEqual(['a', 'b', 'c', 'd']);
    const turns = seen.map(([, at]) => at);
    expect(new Set(turns).size).toBe(turns.length);
  });

  it('goes on after a search that failed, and hands its error to its caller', async () => {
    const failed = inTurn(() => {
      throw new Error('no such column');
    });
    const next = inTurn(() => 'answered');
    await expect(failed).rejects.toThrow('no such column');
    await expect(next).resolves.toBe('answered');
  });
});
