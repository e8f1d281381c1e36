// The shared worker pool: tasks run on workers, a cancel ends a running task at once, and the pool carries on after it.
import { describe, expect, it } from 'vitest';
import { inspectHome } from '../../../electron/core/codex/home';
import { threeWay } from '../../../electron/core/review/three-way';
import { threeWayAsync } from '../../../electron/core/review/three-way-off-thread';
import { poolAvailable, runTask, shutdownWorkerPool, workerPoolStats } from '../../../electron/core/runtime/pool';
import { generateHome } from '../../fixtures';
import { withTempDir } from '../helpers';

describe('worker pool', () => {
  it('runs on workers from the compiled script, bounded in size', async () => {
    expect(poolAvailable()).toBe(true); // npm test builds before the unit suite
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => runTask('hunks', { base: `a\nb\n${i}\n`, proposed: `a\nc\n${i}\n` })),
    );
    expect(results.every((hunks) => hunks.length === 1)).toBe(true);
    const stats = workerPoolStats();
    expect(stats.spawned).toBeGreaterThan(0);
    expect(stats.spawned).toBeLessThanOrEqual(stats.size);
  });

  it('cancels a running task by ending its worker, then runs the next one', async () => {
    const lines = Array.from({ length: 400_000 }, (_, i) => `line ${i}`);
    const base = lines.join('\n');
    const proposed = lines.map((l, i) => (i % 3 === 0 ? `${l} changed` : l)).join('\n');
    const controller = new AbortController();
    const running = runTask('hunks', { base, proposed }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(running).rejects.toMatchObject({ kind: 'Cancelled', message: 'Cancelled.' });
    expect(await runTask('hunks', { base: 'x\n', proposed: 'y\n' })).toHaveLength(1);
  });

  it('merges a large file three-way on the pool, with the same result as in the thread', async () => {
    const lines = Array.from({ length: 40_000 }, (_, i) => `- note ${i}`);
    const base = `${lines.join('\n')}\n`;
    const theirs = base.replace('- note 10\n', '- note 10 (Codex)\n');
    const ours = base.replace('- note 30000\n', '- note 30000 (ours)\n');
    const merged = await threeWayAsync(base, theirs, ours);
    expect(merged).toEqual(threeWay(base, theirs, ours));
    expect(merged.proposed).toContain('- note 10 (Codex)\n');
    expect(merged.proposed).toContain('- note 30000 (ours)\n');
  });

  // CI once aborted a whole test process: Node 20 asserted in fs's open inside a pool worker that was being ended.
  // Workers now end themselves between awaits; this closes the pool at a different point of a DB read each round.
  it('closes while health tasks are reading Codex DBs, ending each worker between awaits', async () => {
    await withTempDir(async (dir) => {
      const manifest = await generateHome({ dir, scale: 'small' });
      const home = await inspectHome({ codexHome: manifest.codexHome, source: 'flag' });
      const outcomes: string[] = [];
      for (let round = 0; round < 12; round++) {
        await runTask('health', { home }); // a warm worker, so the stop below lands inside a read, not before it
        const tasks = Array.from({ length: 3 }, () =>
          runTask('health', { home }).then(
            (report) => (report.kind === 'pipeline_health' ? 'done' : 'wrong'),
            (error: Error) => error.message,
          ),
        );
        await new Promise((later) => setTimeout(later, round * 4)); // a different point in the read each round
        await shutdownWorkerPool();
        outcomes.push(...(await Promise.all(tasks)));
        expect(workerPoolStats().busy).toBe(0);
      }
      expect(new Set(outcomes)).toSatisfy((seen: Set<string>) =>
        [...seen].every((o) => o === 'done' || o === 'Memory Studio is closing; the work was not finished.'),
      );
    });
  });

  it('refuses a task whose signal was cancelled before it started', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(runTask('hunks', { base: 'a', proposed: 'b' }, { signal: controller.signal })).rejects.toMatchObject({
      kind: 'Cancelled',
    });
  });
});
