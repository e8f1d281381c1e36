// Sync through the service, as the app and serve reach it: the channels validate their input, answer in the contract's
// shapes, and report each step as a `sync.progress` event for the Sync view.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../../shared/contract';
import { openGeneratedHome, type GeneratedHomeService } from '../helpers';

const opened: GeneratedHomeService[] = [];
afterEach(async () => {
  for (const g of opened.splice(0)) await g.dispose();
});

describe('sync channels', () => {
  it('init, push and pull answer through the service and report their steps as events', async () => {
    const g = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 3, git: false });
    opened.push(g);
    const remote = join(g.dir, 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', remote]);
    const events: EventEnvelope[] = [];
    g.service.onEvent((e) => void events.push(e));

    expect((await g.service.call('sync.status', {})).configured).toBe(false);
    const settings = await g.service.call('sync.init', { remote, machine: 'laptop' });
    expect(settings).toMatchObject({ owner: 'machines/laptop', remote, formerOwners: [] });
    const pushed = await g.service.call('sync.push', {});
    expect(pushed).toMatchObject({ changed: true, owner: 'machines/laptop', version: 'v1' });
    const steps = events.flatMap((e) => (e.event === 'sync.progress' ? [`${e.payload.step}: ${e.payload.line}`] : []));
    expect(steps.some((l) => l.startsWith('push: Pushing'))).toBe(true);
    expect(steps.some((l) => l.startsWith('init: Fetching'))).toBe(true);
    const pulled = await g.service.call('sync.pull', {});
    expect(pulled).toMatchObject({ arrivals: [], proposalId: null, declined: null });
    expect((await g.service.call('sync.status', {})).pending).toEqual({ added: [], changed: [], removed: [] });

    // A page never names a folder relative to the host's working folder, and a machine and a person are exclusive.
    await expect(g.service.call('sync.init', { remote: 'relative/remote.git' })).rejects.toThrow(/not an absolute path/);
    await expect(g.service.call('sync.init', { remote, machine: 'a', person: 'b' })).rejects.toThrow(/machine or a person/);
  });
});
