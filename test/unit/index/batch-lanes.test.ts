// A refresh of 400 changed files (one batch's worth) is cut for every pool worker: the batches (one write transaction
// each, each bumping the index's generation once) are at least as many as the workers (2 to 4, 100 files or more each).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectHome } from '../../../electron/core/codex/home';
import { IndexManager } from '../../../electron/core/index-store/manager';
import { poolAvailable, workerPoolStats } from '../../../electron/core/runtime/pool';
import { generateHome } from '../../fixtures';
import { makeTempDir } from '../helpers';

let tmp: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.cleanup());

describe('index refresh batches', () => {
  it('writes 400 new notes in at least as many transactions as the pool has workers', async () => {
    expect(poolAvailable()).toBe(true); // npm test builds the worker before the unit suite
    const lanes = workerPoolStats().size;
    expect(lanes).toBeGreaterThanOrEqual(2);
    const manifest = await generateHome({ dir: join(tmp.dir, 'home'), scale: 'small', version: 'v1', seed: 3 });
    const home = await inspectHome({ codexHome: manifest.codexHome, source: 'flag' });
    const notes = join(home.roots.find((r) => r.version === 'v1')?.path as string, 'extensions', 'ad_hoc', 'notes');
    const manager = new IndexManager({ dataDir: join(tmp.dir, 'data'), scanOnPool: false });
    try {
      const generation = async () => (await manager.fresh(home))?.generation ?? Number.NaN;
      const start = await generation();
      // One new file: one batch (and whatever else a refresh bumps).
      await writeFile(join(notes, '2026-11-20T12-00-00-one.md'), 'One more note.\n');
      const one = (await generation()) - start;
      const before = await generation();
      for (let i = 0; i < 400; i++)
        await writeFile(join(notes, `2026-11-20T12-01-${String(i).padStart(3, '0')}-n.md`), `Note ${i}: the build uses pnpm.\n`);
      const many = (await generation()) - before;
      expect(many - one).toBeGreaterThanOrEqual(lanes - 1);
      const indexed = await manager.fresh(home);
      expect(indexed?.generation).toBe(before + many); // nothing left to do
    } finally {
      manager.dispose();
    }
  });
});
