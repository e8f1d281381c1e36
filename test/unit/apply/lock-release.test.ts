// Releasing a root's lock removes it only while it still carries our token: a lock taken over, or one whose token cannot
// be read (damaged, hand-edited), stays for the stale rule to judge. Only the token is read (no schema).
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

  it('removes a lock that still carries our token even when its other fields were damaged', async () => {
    const held = await acquireLockFile(dataDir, '/memories', Date.now());
    await writeFile(held.path, JSON.stringify({ token: held.token, pid: 'not a number' }));
    await releaseLockFile(held);
    expect(existsSync(held.path)).toBe(false);
  });
});
