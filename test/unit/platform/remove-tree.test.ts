// Removing a folder tree a batch at a time: everything goes (a symlink, never its target), and the loop turns meanwhile.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { REMOVE_BATCH, removeTreeGently } from '../../../electron/core/platform/remove-tree';
import { makeTempDir } from '../helpers';

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(async () => {
  await cleanup();
});

it('removes a tree, a symlink in it but not what it points at; a missing folder is no error', async () => {
  const tree = join(dir, 'run');
  mkdirSync(join(tree, 'memories', 'skills', 'deep', 'deeper'), { recursive: true });
  for (let i = 0; i < 100; i++) writeFileSync(join(tree, 'memories', `s-${i}.md`), `summary ${i}\n`);
  writeFileSync(join(tree, 'memories', 'skills', 'deep', 'deeper', 'SKILL.md'), 'skill\n');
  writeFileSync(join(tree, 'owner'), 'memory-studio:1@x\n');
  writeFileSync(join(dir, 'outside.md'), 'keep me\n');
  symlinkSync(join(dir, 'outside.md'), join(tree, 'memories', 'link.md'));
  symlinkSync(dir, join(tree, 'memories', 'dir-link'));

  await removeTreeGently(tree, { last: 'owner' });

  expect(existsSync(tree)).toBe(false);
  expect(readFileSync(join(dir, 'outside.md'), 'utf8')).toBe('keep me\n');
  await expect(removeTreeGently(tree)).resolves.toBeUndefined();
  writeFileSync(join(dir, 'plain.md'), 'x');
  await removeTreeGently(join(dir, 'plain.md'));
  expect(existsSync(join(dir, 'plain.md'))).toBe(false);
});

it('settles at most a batch of entries per turn of the event loop, so the loop turns while thousands go', async () => {
  const tree = join(dir, 'staging');
  mkdirSync(tree);
  const files = 2_000;
  for (let i = 0; i < files; i++) writeFileSync(join(tree, `rollout-${i}.md`), 'x'.repeat(200));
  // `fs.promises.rm` starts all 2,000 at once and most vanish between two turns of the loop; here a batch and the next
  // one (started by the batch's last callback, run by the thread pool before the next turn) at most.
  const drops: number[] = [];
  let left = files;
  let done = false;
  const tick = () => {
    if (done) return;
    const now = existsSync(tree) ? readdirSync(tree).length : 0;
    drops.push(left - now);
    left = now;
    setImmediate(tick);
  };
  const removal = removeTreeGently(tree).finally(() => (done = true));
  setImmediate(tick);
  await removal;

  expect(existsSync(tree)).toBe(false);
  expect(drops.length).toBeGreaterThanOrEqual(files / (2 * REMOVE_BATCH));
  expect(Math.max(...drops)).toBeLessThanOrEqual(2 * REMOVE_BATCH);
});
