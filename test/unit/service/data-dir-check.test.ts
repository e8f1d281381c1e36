// The data folder may not be inside a Codex memory folder: Memory Studio's own files would land in Codex's memory.
import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDataDirPlacement, memoryRootHolding } from '../../../electron/core/service/data-dir-check';
import { createStudioService } from '../../../electron/core/service/service';
import { built, cli, errorOf, jsonOf, repoRoot } from '../faults/probe-kit';
import { withTempDir } from '../helpers';

describe('data folder placement', () => {
  it('finds the memory folder holding a data folder, whether it exists yet, is reached through a link or is the root itself', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'codex');
      await mkdir(join(home, 'memories'), { recursive: true });
      await mkdir(join(home, 'memories_v2'), { recursive: true });
      await symlink(join(home, 'memories'), join(dir, 'link'));
      expect(memoryRootHolding(join(home, 'memories', 'studio'), home)).toBe(join(home, 'memories'));
      expect(memoryRootHolding(join(home, 'memories'), home)).toBe(join(home, 'memories'));
      expect(memoryRootHolding(join(home, 'memories_v2', 'a', 'b'), home)).toBe(join(home, 'memories_v2'));
      expect(memoryRootHolding(join(dir, 'link', 'new', 'data'), home)).toBe(join(home, 'memories'));
      expect(memoryRootHolding(join(home, 'memories', 'x'), home, 'darwin')).toBe(join(home, 'memories'));
      expect(memoryRootHolding(join(home, 'MEMORIES', 'x'), home, 'darwin')).toBe(join(home, 'memories'));
      expect(memoryRootHolding(join(home, 'memories-old'), home)).toBeNull();
      expect(memoryRootHolding(join(dir, 'data'), home)).toBeNull();
      expect(memoryRootHolding(home, home)).toBeNull();
      expect(() => checkDataDirPlacement(join(home, 'memories', 'studio'), home)).toThrow(/is inside the Codex memory folder/);
    });
  });

  it('a service refuses it before it writes anything', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'codex');
      await mkdir(join(home, 'memories'), { recursive: true });
      expect(() =>
        createStudioService({
          home: { codexHome: home, source: 'flag' },
          dataDir: join(home, 'memories', 'd'),
          host: 'serve',
          appVersion: 't',
        }),
      ).toThrow(expect.objectContaining({ kind: 'Invalid' }) as Error);
      expect(await readdir(join(home, 'memories'))).toEqual([]);
    });
  });

  it.skipIf(!built)('every command refuses it, as JSON with --json, and writes nothing into the memory folder', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'codex');
      await mkdir(join(home, 'memories'), { recursive: true });
      const data = join(home, 'memories', 'studio');
      const common = ['--codex-home', home, '--data-dir', data, '--json'];
      for (const args of [['inspect'], ['history'], ['consolidate'], ['apply', 'p-0123456789'], ['secrets'], ['show', 'p-0123456789']]) {
        const run = cli([...args, ...common]);
        expect(errorOf(jsonOf(run)), args[0]).toMatchObject({ kind: 'Invalid', path: data });
        expect(run.status).toBe(1);
      }
      const env = { MEMORY_STUDIO_DATA: data };
      if (existsSync(join(repoRoot, 'out', 'renderer', 'index.html'))) {
        const served = cli(['serve', '--codex-home', home, '--port', '0'], { env });
        expect(served.status).toBe(1);
        expect(served.stderr).toMatch(/inside the Codex memory folder/);
      }
      expect(existsSync(data)).toBe(false);
    });
  });
});
