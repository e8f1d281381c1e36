// Import walks are bounded: a custom memory folder at the top of a huge tree stops with a clear error naming it,
// never "Maximum call stack size exceeded" and never a walk of the whole disk.
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { detectImport } from '../../../electron/core/import';
import { appendAll } from '../../../electron/core/platform/append';
import { makeTempDir } from '../helpers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A Claude home whose settings point autoMemoryDirectory at `custom`. */
async function claudeHomeWith(custom: string): Promise<{ base: string; claudeHome: string; env: NodeJS.ProcessEnv }> {
  const temp = await makeTempDir();
  cleanups.push(temp.cleanup);
  const claudeHome = join(temp.dir, 'claude');
  await mkdir(join(claudeHome, 'projects'), { recursive: true });
  await writeFile(join(claudeHome, 'settings.json'), JSON.stringify({ autoMemoryDirectory: custom }));
  return { base: temp.dir, claudeHome, env: { HOME: temp.dir } };
}

const detect = (h: { claudeHome: string; env: NodeJS.ProcessEnv; base: string }, walkLimits?: object) =>
  detectImport({ from: 'claude', sourceHome: h.claudeHome }, { env: h.env, managedSettingsDir: join(h.base, 'managed'), walkLimits });

describe('import walk bounds', () => {
  it('150,000 non-Markdown files in an autoMemoryDirectory end in a clear error naming the folder', async () => {
    const temp = await makeTempDir();
    cleanups.push(temp.cleanup);
    const big = join(temp.dir, 'everything');
    await mkdir(big, { recursive: true });
    const made = spawnSync('sh', ['-c', 'seq 1 150000 | sed "s/$/.bin/" | xargs touch'], { cwd: big });
    expect(made.status).toBe(0);
    const h = await claudeHomeWith(big);
    const failure = await detect(h).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({ kind: 'Invalid', path: big });
    expect((failure as Error).message).toContain(`${big} holds more than 50,000 files and folders`);
    expect((failure as { hint: string }).hint).toMatch(/autoMemoryDirectory/);
  });

  it('stops at a depth and at a deadline, and a folder within the bounds is read as before', async () => {
    const h = await claudeHomeWith('~/mem');
    const deep = join(h.base, 'mem', ...Array.from({ length: 20 }, (_, i) => `d${i}`));
    await mkdir(deep, { recursive: true });
    await writeFile(join(h.base, 'mem', 'MEMORY.md'), '# Memory\n');
    await expect(detect(h)).rejects.toMatchObject({ kind: 'Invalid', message: expect.stringMatching(/more than 16 levels deep/) });
    await expect(detect(h, { maxMs: -1 })).rejects.toMatchObject({ message: expect.stringMatching(/took more than/) });
    const fine = await detect(h, { maxDepth: 32 });
    expect(fine.projects.map((p) => [p.key, p.importableCount])).toEqual([['_custom', 1]]);
  });

  it('appends lists far past the arguments limit', () => {
    const many = Array.from({ length: 200_000 }, (_, i) => i);
    expect(appendAll([-1], many)).toHaveLength(200_001);
  });
});
