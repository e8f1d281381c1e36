// A long answer's JSON built in turns of the loop: always the text one JSON.stringify gives, whatever the value holds.
import { setImmediate } from 'node:timers';
import { describe, expect, it } from 'vitest';
import { JSON_ITEMS, jsonInTurns } from '../../../electron/core/platform/json-in-turns';
import { everyItemClock } from '../helpers';

const long = (n: number, item: (i: number) => unknown) => Array.from({ length: n }, (_, i) => item(i));

describe('jsonInTurns', () => {
  const values: Array<[string, unknown]> = [
    ['a short object', { ok: true, value: { a: 1, b: 'two', c: [1, 2, 3] } }],
    ['a long top-level array', long(JSON_ITEMS * 3, (i) => ({ i, s: `é${i}` }))],
    [
      'an answer with long arrays two levels down',
      { ok: true, value: { writes: long(200, (i) => ({ i })), projects: long(70, (i) => [i]), n: 3 } },
    ],
    [
      'holes JSON writes as null or leaves out',
      { ok: true, value: { gone: undefined, f: () => 1, items: long(100, (i) => (i % 3 === 0 ? undefined : i % 3 === 1 ? () => i : i)) } },
    ],
    [
      'objects with toJSON and nested arrays',
      { at: new Date(0), deep: { a: { b: { c: long(100, (i) => i) } } }, list: long(80, (i) => ({ d: new Date(i) })) },
    ],
    [
      'few items that each hold a long array',
      { ok: true, value: { projects: long(3, (i) => ({ key: i, files: long(70, (k) => ({ k, t: 'x' })) })) } },
    ],
    ['arrays of arrays, holes and undefined', [long(70, (i) => i), [undefined, new Array(3), 3], long(66, () => [1, [2]])]],
    ['empty arrays and strings that need escapes', { e: [], s: '"\\\n\u2028', nested: { items: long(65, () => 'a"b') } }],
  ];
  for (const [name, value] of values) {
    it(`gives JSON.stringify's text for ${name}`, async () => {
      const clock = everyItemClock();
      expect((await jsonInTurns(value, { clock }))?.join('')).toBe(JSON.stringify(value));
      expect((await jsonInTurns(value))?.join('')).toBe(JSON.stringify(value));
    });
  }

  it('lets other work run between pieces of a long array, and none for a short answer', async () => {
    let ran = 0;
    const tick = () => setImmediate(() => ran++);
    tick();
    const clock = everyItemClock();
    const pieces = (await jsonInTurns({ ok: true, value: { files: long(JSON_ITEMS + 10, (i) => i) } }, { clock })) ?? [];
    expect(clock.turns).toBe(JSON_ITEMS + 10);
    expect(ran).toBe(1);
    expect(pieces.length).toBeGreaterThan(JSON_ITEMS);

    ran = 0;
    tick();
    const short = everyItemClock();
    expect(await jsonInTurns({ ok: true, value: { files: long(JSON_ITEMS, (i) => i) } }, { clock: short })).toHaveLength(1);
    expect(short.turns).toBe(0);
    expect(ran).toBe(0);
  });

  it('stops with null when the signal aborts between turns', async () => {
    const controller = new AbortController();
    const run = jsonInTurns(
      { ok: true, value: { files: long(JSON_ITEMS * 2, (i) => i) } },
      { clock: everyItemClock(), signal: controller.signal },
    );
    controller.abort();
    expect(await run).toBeNull();
  });
});
