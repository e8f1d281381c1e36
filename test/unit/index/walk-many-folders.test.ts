// A memory root with 130,000 folders in one folder (hostile, or an unpacked archive) is listed, not a stack overflow.
import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkRootSync } from '../../../electron/core/index-store/walk';
import { withTempDir } from '../helpers';

describe('index walk of a root with very many folders', () => {
  it('lists a root whose one folder holds 130,000 folders', async () => {
    await withTempDir(async (dir) => {
      const root = join(dir, 'memories');
      const crowd = join(root, 'skills');
      await mkdir(crowd, { recursive: true });
      await writeFile(join(root, 'MEMORY.md'), '# Task Group: probe\n');
      expect(spawnSync('sh', ['-c', 'seq 1 130000 | sed "s/^/d/" | xargs mkdir'], { cwd: crowd }).status).toBe(0);
      await writeFile(join(crowd, 'd129999', 'SKILL.md'), '---\nname: deep\n---\n');
      const walked = walkRootSync(root, 'v1');
      expect(walked.list.files.map((f) => f.path).sort()).toEqual(['MEMORY.md', 'skills/d129999/SKILL.md']);
    });
  });
});
