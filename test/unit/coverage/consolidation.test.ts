// The consolidation job's state in the ledger, row by row, against Codex's claim rules (docs/codex-facts.md, "Phase 2 lease").
import { afterEach, describe, expect, it } from 'vitest';
import { buildCoverage } from '../../../electron/core/coverage';
import type { CoverageConsolidation } from '../../../shared/coverage';
import { HOUR, makeWorld, threadId, type JobSpec, type World } from './world';

const NOW = 1_800_000_000;
const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.cleanup();
});

async function stateOf(global: Omit<JobSpec, 'key' | 'kind'> | null): Promise<CoverageConsolidation> {
  const world = await makeWorld({
    now: NOW,
    threads: [{ id: threadId(1), updatedAt: NOW - 2 * 86_400 }],
    jobs: global ? [{ ...global, kind: 'memory_consolidate_global', key: 'global' }] : [],
  });
  worlds.push(world);
  return (await buildCoverage(world.home, {}, NOW)).consolidation;
}

describe("the consolidation job's state", () => {
  it('absent: Codex never created the row', async () => {
    expect(await stateOf(null)).toMatchObject({ state: 'absent', status: null, reclaimable: false });
  });

  it('running under a live lease, and running-dead once the lease ended (reclaimable)', async () => {
    const live = await stateOf({ status: 'running', startedAt: NOW - 60, leaseUntil: NOW + 600 });
    expect(live).toMatchObject({ state: 'running', reclaimable: false, leaseUntil: { seconds: NOW + 600 } });
    expect(live.detail).toMatch(/running \(worker worker-1\); its lease runs until/);
    const dead = await stateOf({ status: 'running', startedAt: NOW - 7200, leaseUntil: NOW - 3600 });
    expect(dead).toMatchObject({ state: 'running-dead', reclaimable: true });
    expect(dead.detail).toMatch(/lease ended .*died part-way/);
  });

  it('backoff after a failure (reclaimable), then claimable once the retry time passed', async () => {
    const backoff = await stateOf({ status: 'error', finishedAt: NOW - 600, retryAt: NOW + 3000, lastError: 'failed_agent\ndetails' });
    expect(backoff).toMatchObject({
      state: 'backoff',
      reclaimable: true,
      lastError: 'failed_agent\ndetails',
      retryAt: { seconds: NOW + 3000 },
    });
    expect(backoff.detail).toMatch(/failed \("failed_agent"\); Codex waits until/);
    const over = await stateOf({ status: 'error', finishedAt: NOW - 7200, retryAt: NOW - 10, lastError: 'failed_agent' });
    expect(over).toMatchObject({ state: 'claimable', reclaimable: false });
  });

  it('cooldown for 6 h after a success, also when an enqueue set it pending; done after that', async () => {
    const cooldown = await stateOf({ status: 'done', finishedAt: NOW - HOUR });
    expect(cooldown).toMatchObject({ state: 'cooldown', reclaimable: false });
    expect(cooldown.detail).toMatch(/waits 6 hours after a success/);
    expect((await stateOf({ status: 'pending', finishedAt: NOW - HOUR })).state).toBe('cooldown');
    expect((await stateOf({ status: 'done', finishedAt: NOW - 7 * HOUR })).state).toBe('done');
  });

  it('claimable when new extractions are queued (pending) and nothing holds it back', async () => {
    const pending = await stateOf({ status: 'pending', finishedAt: NOW - 7 * HOUR, inputWatermark: NOW - HOUR });
    expect(pending).toMatchObject({ state: 'claimable', status: 'pending', reclaimable: false });
    expect(pending.detail).toMatch(/queued .*next root session start/);
  });
});
