// The contract: channel names, schemas that reject bad input, and the named-function API built from it.
import { describe, expect, it } from 'vitest';
import { buildApi, channelNames, channels, eventNames, isChannelName } from '../../shared/contract';
import { errorKinds } from '../../shared/result';

describe('contract', () => {
  it('names every channel area.verb', () => {
    for (const name of channelNames) expect(name).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
    for (const name of eventNames) expect(name).toMatch(/^[a-z]+\.[a-zA-Z]+$/);
  });

  it('has the closed set of error kinds', () => {
    expect([...errorKinds]).toEqual(['NotFound', 'Invalid', 'Conflict', 'Locked', 'Busy', 'Cancelled', 'Unsupported', 'Internal']);
  });

  it('rejects unknown channel names, including prototype keys', () => {
    expect(isChannelName('workspace.read')).toBe(true);
    expect(isChannelName('workspace.write')).toBe(false);
    expect(isChannelName('toString')).toBe(false);
    expect(isChannelName('__proto__')).toBe(false);
  });

  it('rejects malformed input', () => {
    const read = channels['workspace.read'].input;
    expect(read.safeParse({ version: 'v1', path: 'MEMORY.md' }).success).toBe(true);
    expect(read.safeParse({ version: 'v3', path: 'MEMORY.md' }).success).toBe(false);
    expect(read.safeParse({ version: 'v1' }).success).toBe(false);
    expect(read.safeParse({ version: 'v1', path: 'a\0b' }).success).toBe(false);
    expect(read.safeParse({ version: 'v1', path: 'x', extra: 1 }).success).toBe(false);
    expect(channels['home.get'].input.safeParse({ sneaky: true }).success).toBe(false);
  });

  it('builds one named function per channel over any transport', async () => {
    const calls: [string, unknown][] = [];
    const api = buildApi(
      async (channel, input) => {
        calls.push([channel, input]);
        return { ok: true, value: channel };
      },
      () => () => undefined,
    );
    await api.workspace.read({ version: 'v1', path: 'MEMORY.md' });
    await api.home.get({});
    expect(calls).toEqual([
      ['workspace.read', { version: 'v1', path: 'MEMORY.md' }],
      ['home.get', {}],
    ]);
    expect(Object.keys(api).sort()).toEqual(
      expect.arrayContaining(['app', 'history', 'home', 'import', 'inspect', 'onEvent', 'provenance', 'review', 'workspace']),
    );
    expect(Object.keys(api).sort()).toEqual([...new Set([...channelNames.map((c) => c.split('.')[0]), 'onEvent'])].sort());
    expect('invoke' in api).toBe(false);
  });
});
