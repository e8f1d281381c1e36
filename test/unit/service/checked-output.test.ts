// The contract's check of a long answer in turns: the same data and the same verdict as one safeParse.
import { setImmediate } from 'node:timers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHECK_ITEMS, checkOutput } from '../../../electron/core/service/checked-output';
import { turnClock, type TurnClock } from '../../../electron/core/platform/turn-clock';

function everyItem(): TurnClock & { turns: number } {
  const inner = turnClock(0);
  const clock = { turns: 0, due: () => true, turn: async () => (clock.turns++, inner.turn()) };
  return clock;
}

const Item = z.object({ id: z.number().int(), name: z.string() });
const Answer = z.object({ title: z.string(), items: z.array(Item), more: z.array(Item).optional(), capped: z.array(Item).max(100) });
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, name: `n${i}`, extra: 'stripped' }));

describe('checkOutput', () => {
  it('gives what safeParse gives for an answer with long arrays, unknown keys stripped', async () => {
    const value = { title: 't', items: items(CHECK_ITEMS * 2), more: items(CHECK_ITEMS + 1), capped: items(10), other: 1 };
    const clock = everyItem();
    const checked = await checkOutput(Answer, value, clock);
    expect(checked).toEqual({ success: true, data: Answer.parse(value) });
    expect(clock.turns).toBeGreaterThan(CHECK_ITEMS * 3);
    // An absent optional array stays absent.
    const without = { title: 't', items: items(CHECK_ITEMS * 2), capped: [] };
    expect(await checkOutput(Answer, without)).toEqual({ success: true, data: Answer.parse(without) });
  });

  it('fails where safeParse fails, naming the field and the item', async () => {
    const bad = items(CHECK_ITEMS * 2);
    bad[100] = { id: 1.5, name: 'x', extra: '' };
    const checked = await checkOutput(Answer, { title: 't', items: bad, capped: [] });
    expect(checked.success).toBe(false);
    expect(checked.success ? '' : checked.message).toContain('items[100]');
    expect(Answer.safeParse({ title: 't', items: bad, capped: [] }).success).toBe(false);
    // The rest of the object is checked too, and an array with a rule of its own is checked whole.
    expect((await checkOutput(Answer, { title: 1, items: items(CHECK_ITEMS * 2), capped: [] })).success).toBe(false);
    expect((await checkOutput(Answer, { title: 't', items: [], capped: items(101) })).success).toBe(false);
  });

  it('lets other work run while a long answer is checked, and checks a short one at once', async () => {
    let ran = 0;
    setImmediate(() => ran++);
    await checkOutput(Answer, { title: 't', items: items(CHECK_ITEMS + 1), capped: [] }, everyItem());
    expect(ran).toBe(1);
    ran = 0;
    setImmediate(() => ran++);
    const short = everyItem();
    await checkOutput(Answer, { title: 't', items: items(CHECK_ITEMS), capped: [] }, short);
    expect(short.turns).toBe(0);
    expect(ran).toBe(0);
  });
});
