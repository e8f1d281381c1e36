// Instruction files as Codex finds them: repository root down to the cwd, the override first, never through a symlink.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProject, ruleLines } from '../../../electron/core/doctor/rule-files';
import { withTempDir } from '../helpers';

describe('rule files', () => {
  it('reads from the repository root down to the cwd, AGENTS.override.md before AGENTS.md, CLAUDE.md beside them', async () => {
    await withTempDir(async (dir) => {
      const repo = join(dir, 'repo');
      const sub = join(repo, 'packages', 'api');
      await mkdir(join(repo, '.git'), { recursive: true });
      await mkdir(sub, { recursive: true });
      await writeFile(join(repo, 'AGENTS.md'), '# Root\n\n- Use pnpm for every install here.\n');
      await writeFile(join(sub, 'AGENTS.md'), '- This one is hidden by the override.\n');
      await writeFile(join(sub, 'AGENTS.override.md'), '- The API package pins Node 20.19 exactly.\n');
      await writeFile(join(sub, 'CLAUDE.md'), '- Claude reads this file in the API package.\n');
      const { project, ruleFiles } = await readProject(sub, 'entry');
      expect(ruleFiles.map((f) => [f.path.slice(dir.length), f.rules.map((r) => r.text)])).toEqual([
        ['/repo/AGENTS.md', ['Use pnpm for every install here.']],
        ['/repo/packages/api/AGENTS.override.md', ['The API package pins Node 20.19 exactly.']],
        ['/repo/packages/api/CLAUDE.md', ['Claude reads this file in the API package.']],
      ]);
      expect(project).toMatchObject({ cwd: sub, exists: true, skipped: [] });
    });
  });

  it('never follows a symlinked instruction file, and says so', async () => {
    await withTempDir(async (dir) => {
      await writeFile(join(dir, 'secret.md'), '- not an instruction file at all, really\n');
      await symlink(join(dir, 'secret.md'), join(dir, 'AGENTS.md'));
      const { project, ruleFiles } = await readProject(dir, 'argument');
      expect(ruleFiles).toEqual([]);
      expect(project.skipped).toEqual([expect.stringMatching(/AGENTS\.md was not read: .*symlink/)]);
    });
  });

  it('keeps prose and bullets of three words or more, outside code fences and headings', () => {
    expect(
      ruleLines(
        '# Title\n\nRun the tests before pushing.\n```sh\nnpm test --all now\n```\n- ok\n1. Number every migration file.\n<!-- a comment here -->\n',
      ).map((r) => [r.line, r.text]),
    ).toEqual([
      [3, 'Run the tests before pushing.'],
      [8, 'Number every migration file.'],
    ]);
  });
});
