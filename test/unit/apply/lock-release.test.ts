// Releasing a root's lock removes it only while it is still ours: a lock taken over, damaged or hand-edited stays.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireLockFile, releaseLockFile } from '../../../electron/core/apply/lock-file';
import { makeTempDir } from '../helpers';

describe('releaseLockFile', () => {
  let dataDir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: dataDir, cleanup } = await makeTempDir());
  });
  afterEach(() => cleanup());

  it('removes its own lock, and the root can be locked again', async () => {
    const held = await acquireLockFile(dataDir, '/memories', Date.now());
    expect(existsSync(held.path)).toBe(true);
    await releaseLockFile(held);
    expect(existsSync(held.path)).toBe(false);
    await releaseLockFile(await acquireLockFile(dataDir, '/memories', Date.now()));
  });

  it('leaves a lock that another taker now holds, or that cannot be read, where it is', async () => {
    const held = await acquireLockFile(dataDir, '/memories', Date.now());
    const ours = JSON.parse(await readFile(held.path, 'utf8')) as Record<string, unknown>;
    for (const other of [
      JSON.stringify({ ...ours, token: 'someone-else' }),
      JSON.stringify({ ...ours, token: 42 }),
      '{"pid": 1, "token": ',
      '',
      'null',
    ]) {
      await writeFile(held.path, other);
      await releaseLockFile(held);
      expect(await readFile(held.path, 'utf8')).toBe(other);
    }
  });
});
