// The contract's check of a long answer in turns: the same data and the same verdict as one safeParse.
import { setImmediate } from 'node:timers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHECK_ITEMS, checkOutput } from '../../../electron/core/service/checked-output';
import { everyItemClock } from '../helpers';

const Item = z.object({ id: z.number().int(), name: z.string() });
const Answer = z.object({ title: z.string(), items: z.array(Item), more: z.array(Item).optional(), capped: z.array(Item).max(100) });
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i, name: `n${i}`, extra: 'stripped' }));

/** checkOutput's verdict and data beside safeParse's. */
async function both(schema: z.ZodType, value: unknown) {
  const clock = everyItemClock();
  const ours = await checkOutput(schema, value, { clock });
  const theirs = schema.safeParse(value);
  return { ours, theirs: theirs.success ? { success: true, data: theirs.data } : { success: false }, turns: clock.turns };
}

describe('checkOutput', () => {
  it('gives what safeParse gives for an answer with long arrays, unknown keys stripped', async () => {
    const value = { title: 't', items: items(CHECK_ITEMS * 2), more: items(CHECK_ITEMS + 1), capped: items(10), other: 1 };
    const { ours, theirs, turns } = await both(Answer, value);
    expect(ours).toEqual(theirs);
    expect(turns).toBeGreaterThan(CHECK_ITEMS * 3);
    // An absent optional array stays absent.
    const without = { title: 't', items: items(CHECK_ITEMS * 2), capped: [] };
    const again = await both(Answer, without);
    expect(again.ours).toEqual(again.theirs);
  });

  it('checks a few items that each hold a long array in turns too (a plan of few, large projects)', async () => {
    const Project = z.object({ key: z.string(), files: z.array(Item) });
    const Plan = z.object({ projects: z.array(Project) });
    const value = { projects: Array.from({ length: 3 }, (_, i) => ({ key: `p${i}`, files: items(CHECK_ITEMS + 5), dropped: true })) };
    const { ours, theirs, turns } = await both(Plan, value);
    expect(ours).toEqual(theirs);
    expect(turns).toBeGreaterThan(3 * CHECK_ITEMS);
    const bad = structuredClone(value);
    (bad.projects[2]?.files[7] as { id: unknown }).id = 'seven';
    const failed = await checkOutput(Plan, bad);
    expect(failed.success ? '' : failed.message).toContain('projects[2].files[7]');
  });

  it('fails where safeParse fails, naming the field and the item', async () => {
    const bad = items(CHECK_ITEMS * 2);
    bad[100] = { id: 1.5, name: 'x', extra: '' };
    const checked = await checkOutput(Answer, { title: 't', items: bad, capped: [] });
    expect(checked.success).toBe(false);
    expect(checked.success ? '' : checked.message).toContain('items[100]');
    // The rest of the object is checked too, and an array with a rule of its own is checked whole.
    expect((await both(Answer, { title: 1, items: items(CHECK_ITEMS * 2), capped: [] })).ours.success).toBe(false);
    expect((await both(Answer, { title: 't', items: [], capped: items(101) })).ours.success).toBe(false);
  });

  it('agrees with safeParse where a wrapper has a rule of its own, or the value is not a plain object', async () => {
    const long = items(CHECK_ITEMS * 2);
    const atMostTen = z.object({
      a: z
        .array(Item)
        .optional()
        .refine((v) => !v || v.length <= 10),
    });
    const notEmpty = z.object({
      a: z
        .array(Item)
        .nullable()
        .refine((v) => !v || v.length > 0),
    });
    for (const [schema, value] of [
      [atMostTen, { a: long }],
      [notEmpty, { a: long }],
      [z.object({ a: z.array(Item), b: z.string() }), Object.assign(Object.create({ b: 'inherited' }) as object, { a: long })],
    ] as const) {
      const { ours, theirs } = await both(schema, value);
      expect(ours.success).toBe(theirs.success);
      if (ours.success) expect(ours).toEqual(theirs);
    }
  });

  it('lets other work run while a long answer is checked, checks a short one at once, and stops when cancelled', async () => {
    let ran = 0;
    setImmediate(() => ran++);
    await checkOutput(Answer, { title: 't', items: items(CHECK_ITEMS + 1), capped: [] }, { clock: everyItemClock() });
    expect(ran).toBe(1);
    ran = 0;
    setImmediate(() => ran++);
    const short = everyItemClock();
    await checkOutput(Answer, { title: 't', items: items(CHECK_ITEMS), capped: [] }, { clock: short });
    expect(short.turns).toBe(0);
    expect(ran).toBe(0);
    const controller = new AbortController();
    const run = checkOutput(
      Answer,
      { title: 't', items: items(CHECK_ITEMS * 2), capped: [] },
      { clock: everyItemClock(), signal: controller.signal },
    );
    controller.abort();
    await expect(run).rejects.toMatchObject({ kind: 'Cancelled' });
  });
});
