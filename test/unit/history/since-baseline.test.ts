// `history.sinceBaseline` on a generated home with a git baseline: statuses, hunks, and `.git/` left untouched.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sinceBaseline } from '../../../electron/core/history/baseline';
import type { StudioService } from '../../../electron/core/service/service';
import { generateHome } from '../../fixtures';
import { openGeneratedHome, type GeneratedHomeService } from '../helpers';

let home: GeneratedHomeService;
let service: StudioService;
let root: string;

beforeAll(async () => {
  home = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 9, git: true });
  ({ service, root } = home);
});

afterAll(async () => {
  await home.dispose();
});

/** Every file under `.git` with its bytes' hash, size and mtime (the index's mtime included). */
function fingerprintGit(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const abs = join(entry.parentPath, entry.name);
    const info = statSync(abs);
    const rel = relative(dir, abs);
    out[rel] = entry.isFile()
      ? `${createHash('sha256').update(readFileSync(abs)).digest('hex')} ${info.size} ${info.mtimeMs}`
      : `dir ${info.mtimeMs}`;
  }
  return out;
}

describe('history.sinceBaseline', () => {
  it('is empty right after the baseline, and reports the commit', async () => {
    const diff = await service.call('history.sinceBaseline', { version: 'v1' });
    expect(diff).toMatchObject({ version: 'v1', hasBaseline: true, files: [] });
    expect(diff.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(diff.committedAt).toBeGreaterThan(0);
  });

  it('reports modified, added and deleted files with hunks, and leaves .git byte- and mtime-identical', async () => {
    const gitBefore = fingerprintGit(join(root, '.git'));
    expect(Object.keys(gitBefore)).toContain('index');
    const summary = await readFile(join(root, 'memory_summary.md'), 'utf8');
    const lines = summary.split('\n');
    lines[3] = `${lines[3]} (hand edit)`;
    await writeFile(join(root, 'memory_summary.md'), lines.join('\n'));
    await writeFile(join(root, 'extensions', 'ad_hoc', 'notes', '2026-03-02T10-00-00-new-note.md'), 'A new note.\n');
    const summaries = readdirSync(join(root, 'rollout_summaries')).sort();
    const removed = `rollout_summaries/${summaries[0] as string}`;
    await unlink(join(root, removed));

    const diff = await service.call('history.sinceBaseline', { version: 'v1' });
    const byPath = Object.fromEntries(diff.files.map((f) => [f.path, f]));
    expect(diff.files.map((f) => [f.path, f.status])).toEqual(
      [
        ['extensions/ad_hoc/notes/2026-03-02T10-00-00-new-note.md', 'added'],
        ['memory_summary.md', 'modified'],
        [removed, 'deleted'],
      ].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)),
    );
    const modified = byPath['memory_summary.md']?.hunks ?? [];
    expect(modified).toHaveLength(1);
    expect(modified[0]?.lines).toContain(`+${lines[3] as string}`);
    expect(byPath['extensions/ad_hoc/notes/2026-03-02T10-00-00-new-note.md']?.hunks[0]).toMatchObject({
      kind: 'create',
      lines: ['+A new note.'],
    });
    expect(byPath[removed]?.hunks[0]?.kind).toBe('delete');
    // One file opened as a diff: the baseline's text and the live one, with the same hunks; a deleted file has no after.
    const one = await service.call('history.baselineFile', { version: 'v1', path: 'memory_summary.md' });
    expect(one).toMatchObject({ status: 'modified', before: summary, after: lines.join('\n'), note: null });
    expect(one.hunks).toEqual(modified);
    expect(await service.call('history.baselineFile', { version: 'v1', path: removed })).toMatchObject({
      status: 'deleted',
      after: null,
      hunks: [{ kind: 'delete' }],
    });
    expect(await service.dispatch('history.baselineFile', { version: 'v1', path: '../outside.md' })).toMatchObject({
      ok: false,
      error: { kind: 'Invalid' },
    });
    expect(await service.dispatch('history.baselineFile', { version: 'v1', path: 'nope.md' })).toMatchObject({
      ok: false,
      error: { kind: 'NotFound' },
    });
    expect(fingerprintGit(join(root, '.git'))).toEqual(gitBefore);
  });

  it('says there is no baseline when the root has no .git, without looking above the root', async () => {
    const other = join(home.dir, 'plain');
    await generateHome({ dir: other, scale: 'small', version: 'v1', seed: 3, git: false });
    const diff = await sinceBaseline(join(other, 'memories'), 'v1');
    expect(diff).toMatchObject({ hasBaseline: false, commit: null, files: [] });
    expect(diff.notes[0]).toMatch(/no git baseline/);
    await rm(other, { recursive: true, force: true });
  });

  it('says git is missing when no git binary is on PATH', async () => {
    const saved = process.env.PATH;
    process.env.PATH = join(home.dir, 'no-such-bin');
    try {
      const diff = await sinceBaseline(root, 'v1');
      expect(diff).toMatchObject({ hasBaseline: false });
      expect(diff.notes[0]).toMatch(/git is not installed/);
    } finally {
      process.env.PATH = saved;
    }
  });
});
