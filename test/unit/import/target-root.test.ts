// A missing target root is created when the proposal is made, with the folder mode any new folder gets (not 0700).
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { proposeImport } from '../../../electron/core/import';
import { openStudioDb } from '../../../electron/core/studio-db';
import { makeTempDir, openGeneratedHome } from '../helpers';
import { makeClaudeHome } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('import target root', () => {
  it('creates a missing root with the default folder mode, like Codex create_dir_all', async () => {
    const temp = await makeTempDir();
    const f = await makeClaudeHome(temp.dir);
    const g = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 5, git: false });
    cleanups.push(async () => {
      await g.dispose();
      await temp.cleanup();
    });
    const home = await g.service.call('home.get', {});
    const v2 = home.roots.find((r) => r.version === 'v2');
    expect(v2?.exists).toBe(false);
    const studio = openStudioDb(join(temp.dir, 'data'));
    try {
      await proposeImport(studio, home, { from: 'claude', sourceHome: f.claudeHome, choices: { secretDefault: 'redact' } }, { env: f.env, managedSettingsDir: f.managedDir });
    } finally {
      studio.close();
    }
    const reference = join(temp.dir, 'reference-folder');
    await mkdir(reference);
    expect((await stat(v2?.path ?? '')).mode & 0o777).toBe((await stat(reference)).mode & 0o777);
  });
});
