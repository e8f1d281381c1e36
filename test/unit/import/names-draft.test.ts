// Import guards and wizard state: target names that could escape, the provenance header's escaping, the draft file.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cursorProvenanceHeader, draftPath } from '../../../electron/core/import';
import { projectKeyProblem, relPathProblem } from '../../../electron/core/import/names';
import { openGeneratedHome, withTempDir } from '../helpers';

describe('import target names', () => {
  it.each([
    ['', /empty/],
    ['..', /reserved/],
    ['.', /reserved/],
    ['.git', /reserved/],
    ['a/b', /separator/],
    ['a\\b', /separator/],
    ['CON', /device/],
    ['lpt9.txt', /device/],
    ['com1', /device/],
    ['name.', /dot or a space/],
    ['name ', /dot or a space/],
    ['C:x', /drive/],
    ['tab\there', /control/],
  ])('refuses the key %j', (key, why) => {
    expect(projectKeyProblem(key)).toMatch(why);
  });

  it('accepts Claude keys and refuses relative paths that escape or clash with scope.json', () => {
    expect(projectKeyProblem('-home-me-app')).toBeNull();
    expect(projectKeyProblem('C--Users-me-p')).toBeNull();
    expect(relPathProblem('notes/deep.md')).toBeNull();
    expect(relPathProblem('../x.md')).toMatch(/reserved/);
    expect(relPathProblem('a/../../x.md')).toMatch(/reserved/);
    expect(relPathProblem('/etc/passwd')).toMatch(/absolute/);
    expect(relPathProblem('scope.json')).toMatch(/scope/);
    expect(relPathProblem('sub/scope.json')).toBeNull();
    expect(relPathProblem('.git/config')).toMatch(/reserved/);
  });

  it('percent-encodes what could end or split the header comment', () => {
    const header = cursorProvenanceHeader({ sourcePath: '/x/a--b;c>d.mdc', mtimeMs: 0, sha256: 'ab', kind: 'rule' });
    expect(header).toBe('<!-- imported-from: cursor; source: /x/a%2D%2Db%3Bc%3Ed.mdc; mtime: 1970-01-01T00:00:00.000Z; sha256: ab -->\n');
  });
});

describe('import draft', () => {
  it('saves, reads back and clears the wizard state in the data folder (through the contract)', async () => {
    const g = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 2, git: false });
    try {
      expect(await g.service.call('import.draft', {})).toBeNull();
      const draft = {
        step: 'secrets' as const,
        options: { from: 'claude' as const, repos: ['/r'] },
        projects: ['-a'],
        choices: { secretDefault: 'redact' as const },
        proposalId: null,
      };
      const saved = await g.service.call('import.saveDraft', { draft });
      expect(saved).toMatchObject(draft);
      expect(JSON.parse(await readFile(draftPath(join(g.dir, 'data')), 'utf8'))).toMatchObject({ step: 'secrets' });
      expect(await g.service.call('import.draft', {})).toEqual(saved);
      expect(await g.service.call('import.clearDraft', {})).toEqual({ cleared: true });
      expect(await g.service.call('import.clearDraft', {})).toEqual({ cleared: false });
      expect(await g.service.call('import.draft', {})).toBeNull();
    } finally {
      await g.dispose();
    }
  });

  it('a damaged draft file reads as none', async () => {
    await withTempDir(async (dir) => {
      const { writeFile } = await import('node:fs/promises');
      const { readDraft } = await import('../../../electron/core/import');
      await writeFile(draftPath(dir), '{ not json');
      expect(await readDraft(dir)).toBeNull();
    });
  });
});
