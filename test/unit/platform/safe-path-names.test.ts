// Names that are not what they look like: control characters, and `.git` as a case-insensitive disk spells it.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listMemoryRoot } from '../../../electron/core/codex/workspace';
import { walkRootSync } from '../../../electron/core/index-store/walk';
import { relPathProblem } from '../../../electron/core/import/names';
import { checkRelativePath, controlCharacterIn, isBaselineDirName, resolveInsideRoot } from '../../../electron/core/platform/safe-path';
import { stageRoot } from '../../../electron/core/consolidate/stage';
import { withTempDir } from '../helpers';

const CONTROLS = ['a\u0001.md', 'notes/a\u001b[31m.md', 'a\n.md', 'a\u007f.md', 'a\u0085.md', 'a\u009f.md'];
const GITS = ['.GIT/config', '.Git/hooks/x.md', '.git./x.md', '.git /x.md', 'skills/.gIt/x.md', '.g\u200cit/x.md', '.CODEX-BASELINE/x'];

describe('names a memory path may not have', () => {
  it('refuses C0 and C1 control characters and DEL in any component, and shows them escaped', () => {
    for (const name of CONTROLS) {
      expect(() => checkRelativePath(name), name).toThrow(/control character U\+00[0-9A-F]{2}/);
      const message = (() => {
        try {
          checkRelativePath(name);
        } catch (error) {
          return (error as Error).message;
        }
        return '';
      })();
      expect(controlCharacterIn(message)).toBeNull();
      expect(relPathProblem(name)).toMatch(/control character/);
    }
    expect(checkRelativePath('notes/café – 2026.md')).toEqual(['notes', 'café – 2026.md']);
  });

  it('treats .GIT, .Git., .g\u200cit and .CODEX-BASELINE as the folders they are on macOS and Windows', () => {
    for (const name of GITS) expect(() => checkRelativePath(name), name).toThrow(/\.git folder|\.codex-baseline/);
    expect(relPathProblem('.GIT/x.md')).toMatch(/reserved/);
    expect(isBaselineDirName('.Codex-Baseline')).toBe(true);
    expect(isBaselineDirName('.github')).toBe(false);
    expect(checkRelativePath('.github/x.md')).toEqual(['.github', 'x.md']);
  });

  it('never lists, indexes, stages or writes into .GIT/ at a root', async () => {
    await withTempDir(async (dir) => {
      const root = join(dir, 'memories');
      await mkdir(join(root, '.GIT'), { recursive: true });
      await writeFile(join(root, '.GIT', 'notes.md'), '# not memory\n');
      await writeFile(join(root, 'MEMORY.md'), '# Task Group: x\n');
      expect((await listMemoryRoot(root, 'v1')).files.map((f) => f.path)).toEqual(['MEMORY.md']);
      expect(walkRootSync(root, 'v1').list.files.map((f) => f.path)).toEqual(['MEMORY.md']);
      await expect(resolveInsideRoot(root, '.GIT/notes.md')).rejects.toMatchObject({ kind: 'Invalid' });
      const staged = join(dir, 'staging');
      const selection = {
        version: 'v1' as const,
        rows: [],
        eligible: 0,
        excludedNotEnabled: 0,
        limit: 1,
        maxUnusedDays: 1,
        newWatermark: 0,
        notes: [],
        blocked: null,
      };
      await stageRoot({
        liveRoot: root,
        stagingDir: staged,
        version: 'v1',
        selection,
        nowSec: 0,
        signal: new AbortController().signal,
        progress: () => undefined,
      });
      expect(existsSync(join(staged, '.GIT'))).toBe(false);
    });
  });
});
