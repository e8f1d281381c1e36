// What the target roots hold now: read through a symlinked parent of CODEX_HOME, and which folders the import owns.
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTargetState } from '../../../electron/core/import/targets';
import { makeTempDir } from '../helpers';
import { earlierImport } from './fixtures';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

describe('target state', () => {
  it('reads an earlier import when a parent of CODEX_HOME is a symlink (dotfiles setups)', async () => {
    const temp = await makeTempDir();
    cleanups.push(temp.cleanup);
    await mkdir(join(temp.dir, 'real'), { recursive: true });
    await earlierImport(join(temp.dir, 'real', 'codex', 'memories'), 'key-a', { 'MEMORY.md': '# A\n', 'notes/deep.md': 'deep\n' });
    await symlink(join(temp.dir, 'real'), join(temp.dir, 'link'));
    const root = join(temp.dir, 'link', 'codex', 'memories');
    const state = await readTargetState({
      version: 'v1',
      root,
      rootExists: true,
      extensionDir: join(root, 'extensions', 'external_agent_import'),
    });
    expect(state.problems).toEqual([]);
    expect([...(state.projects.get('key-a')?.keys() ?? [])].sort()).toEqual(['MEMORY.md', 'notes/deep.md', 'scope.json']);
  });
});
