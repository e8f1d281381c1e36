// The plan's scan and lint in slices (on the pool in the app, in this thread for the CLI): the same plan either way, and
// the plan's own per-project loop gives a shared main loop its turns and stops for a caller who left.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setImmediate } from 'node:timers';
import { afterEach, describe, expect, it } from 'vitest';
import { planImport } from '../../../electron/core/import';
import { inTurns } from '../../../electron/core/import/plan-scan';
import { poolAvailable, workerPoolStats } from '../../../electron/core/runtime/pool';
import { makeTempDir } from '../helpers';
import { APP_KEY, fakeHome, makeClaudeHome, put, SECRETS } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('import plan scan in slices', () => {
  it('plans the same files, findings, texts and lint on a shared loop as in one thread', async () => {
    const t = await makeTempDir();
    cleanups.push(t.cleanup);
    const f = await makeClaudeHome(t.dir);
    // Enough text (over 256 KiB) to be cut into slices, a secret late in the order, and a file the lint warns about.
    for (let i = 0; i < 40; i++)
      await put(
        join(f.memoryDir, 'bulk', `topic_${String(i).padStart(2, '0')}.md`),
        `---\nname: t${i}\ntype: project\n---\n${'fact. '.repeat(1500)}\n`,
      );
    await put(join(f.memoryDir, 'bulk', 'topic_zz.md'), `---\nname: zz\ntype: project\n---\nkey ${SECRETS.github}\n`);
    await put(join(f.memoryDir, 'loose_note.md'), 'A note without any front matter.\n');
    const input = { from: 'claude' as const, sourceHome: f.claudeHome, projects: [APP_KEY], choices: { secretDefault: 'redact' as const } };
    const deps = { env: f.env, managedSettingsDir: f.managedDir };
    const alone = await planImport(input, fakeHome(f.base), deps);
    expect(poolAvailable()).toBe(true); // npm test builds the worker before the unit suite: the shared plan uses it
    const spawned = workerPoolStats().spawned;
    const shared = await planImport(input, fakeHome(f.base), { ...deps, sharedLoop: true });
    expect(shared).toEqual(alone);
    expect(workerPoolStats().spawned).toBeGreaterThan(spawned); // the one-thread plan started no worker; this one did
    const late = alone.projects.flatMap((p) => p.files).find((x) => x.relPath === 'bulk/topic_zz.md');
    expect(late?.findings.map((x) => x.rule)).toContain('secrets/github-token');
    expect(late?.content).not.toContain(SECRETS.github);
    expect((alone.lint ?? []).some((l) => l.relPath.endsWith('loose_note.md'))).toBe(true);
  });

  it('lets other work run between steps on a shared loop, and is Cancelled when its caller aborts', async () => {
    // Each step holds the thread past the turn's length, so every step ends its turn.
    const step = (n: number) => {
      const until = performance.now() + 25;
      while (performance.now() < until);
      return n * 2;
    };
    let ran = 0;
    const ticks = () =>
      setImmediate(() => {
        ran++;
        if (ran < 10) ticks();
      });
    ticks();
    expect(await inTurns([1, 2, 3], { sharedLoop: true }, step)).toEqual([2, 4, 6]);
    expect(ran).toBeGreaterThanOrEqual(2);

    ran = 0;
    ticks();
    await inTurns([1, 2, 3], {}, step);
    expect(ran).toBe(0); // one thread's own command: no turns given

    const controller = new AbortController();
    const steps: number[] = [];
    const run = inTurns([1, 2, 3], { sharedLoop: true, signal: controller.signal }, (n) => {
      steps.push(n);
      if (n === 1) controller.abort();
      return step(n);
    });
    await expect(run).rejects.toMatchObject({ kind: 'Cancelled' });
    expect(steps).toEqual([1]);
  });
});
