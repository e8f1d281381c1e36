// A storm of rejects (a person clicking through the inbox, fifty requests at once): every proposal ends rejected, a
// consolidation among them still hands Codex's lease back, and the rejects take turns on the event loop, so whatever
// else waits (a timer, another request) is answered between two of them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate } from 'node:timers';
import { afterEach, expect, it } from 'vitest';
import type { StudioService } from '../../../electron/core/service/service';
import type { HomeManifest } from '../../fixtures';
import { globalRow } from '../apply/helpers';
import { openGeneratedHome, until } from '../helpers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setUp(): Promise<{ manifest: HomeManifest; service: StudioService; dataDir: string }> {
  const home = await openGeneratedHome({ scale: 'small', version: 'v2', seed: 7, git: false, now: new Date() });
  cleanups.push(() => home.dispose());
  return { manifest: home.manifest, service: home.service, dataDir: join(home.dir, 'data') };
}

/** One proposal per rollout summary of the v2 root (a line added to each), `count` of them. */
async function editProposals(service: StudioService, root: string, count: number): Promise<string[]> {
  const names = readdirSync(join(root, 'rollout_summaries')).sort().slice(0, count);
  expect(names).toHaveLength(count);
  const ids: string[] = [];
  for (const name of names) {
    const path = `rollout_summaries/${name}`;
    const content = `${readFileSync(join(root, path), 'utf8')}\n- seen in the reject storm\n`;
    ids.push((await service.call('review.propose', { version: 'v2', path, content })).id);
  }
  return ids;
}

it('rejects many proposals sent at once, each in a turn of its own, a consolidation among them releasing its lease', async () => {
  const { manifest, service, dataDir } = await setUp();
  const root = join(manifest.codexHome, 'memories_v2');
  const run = await service.consolidation().settled((await service.call('consolidate.start', { version: 'v2' })).id);
  expect(run.lease.held).toBe(true);
  expect(globalRow(join(manifest.codexHome, 'memories_v2_1.sqlite'))?.worker_id).toMatch(/^memory-studio:/);
  const edits = await editProposals(service, root, 6);
  const ids = [...edits.slice(0, 3), run.proposalId as string, ...edits.slice(3)];

  // A timer of the loop's own: it counts turns, and stands for whatever else waits (a timer, another request).
  const log: string[] = [];
  let ticking = true;
  const tick = () => {
    log.push('turn');
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  let asked: Promise<unknown> | null = null;
  const rejects = ids.map((id, i) =>
    service.call('review.reject', { id }).then((p) => {
      log.push(`rejected ${i}`);
      // Asked once the first reject is answered: answered before the last one is.
      asked ??= service.call('app.info', {}).then(() => log.push('app.info'));
      return p;
    }),
  );
  const answers = await Promise.all(rejects);
  await asked;
  ticking = false;

  expect(answers.map((p) => [p.id, p.status])).toEqual(ids.map((id) => [id, 'rejected']));
  const listed = await service.call('review.list', {});
  expect(listed.pendingCount).toBe(0);
  // In order, and never two rejects back to back in one turn: the loop turned between every two of them.
  const order = log.filter((e) => e !== 'turn');
  expect(order.filter((e) => e.startsWith('rejected'))).toEqual(ids.map((_, i) => `rejected ${i}`));
  expect(order.indexOf('app.info')).toBeLessThan(order.indexOf(`rejected ${ids.length - 1}`));
  const rejectedAt = log.flatMap((e, at) => (e.startsWith('rejected') ? [at] : []));
  for (const [n, at] of rejectedAt.slice(1).entries()) expect(log.slice(rejectedAt[n], at)).toContain('turn');

  // The consolidation's reject still hands Codex's lease back, and its run left no staging copy.
  await until('the lease released', async () => (await service.call('consolidate.status', { id: run.id })).lease.held === false);
  expect(globalRow(join(manifest.codexHome, 'memories_v2_1.sqlite'))?.worker_id ?? '').not.toMatch(/^memory-studio:/);
  expect((await service.call('consolidate.status', { id: run.id })).stagingDir).toBeNull();
  expect(existsSync(join(dataDir, 'staging', run.id))).toBe(false);
});
