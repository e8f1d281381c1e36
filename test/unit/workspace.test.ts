// Listing a memory root by kind, and reading one file safely: every refusal is proven.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StudioFailure } from '../../electron/core/platform/errors';
import { checkRelativePath, resolveInsideRoot } from '../../electron/core/platform/safe-path';
import { classifyPath, listMemoryRoot, readMemoryFile } from '../../electron/core/codex/workspace';
import { withTempDir } from './helpers';

async function put(root: string, rel: string, content: string | Buffer = 'x\n'): Promise<void> {
  const path = join(root, rel);
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, content);
}

async function expectFailure(promise: Promise<unknown>, kind: string, text: RegExp): Promise<StudioFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StudioFailure);
  expect((error as StudioFailure).kind).toBe(kind);
  expect((error as StudioFailure).message).toMatch(text);
  return error as StudioFailure;
}

describe('classifyPath', () => {
  it.each([
    ['memory_summary.md', 'summary'],
    ['MEMORY.md', 'memory'],
    ['raw_memories.md', 'raw-memories'],
    ['phase2_workspace_diff.md', 'workspace-diff'],
    ['rollout_summaries/2026-03-02T17-05-44-k3Qz-fix.md', 'rollout-summary'],
    ['rollout_summaries/nested/x.md', 'unknown'],
    ['skills/pdf-fix/SKILL.md', 'skill'],
    ['skills/pdf-fix/scripts/run.sh', 'skill-file'],
    ['extensions/ad_hoc/notes/2026-03-02T17-05-44-prefer-pnpm.md', 'ad-hoc-note'],
    ['extensions/ad_hoc/instructions.md', 'extension-instructions'],
    ['extensions/foo/manifest.json', 'extension-manifest'],
    ['extensions/external_agent_import/resources/-home-dana-web/scope.json', 'extension-scope'],
    ['extensions/external_agent_import/resources/-home-dana-web/MEMORY.md', 'extension-resource'],
    ['extensions/foo/resources/2026-03-02T17-05-44-x.md', 'extension-resource'],
    ['notes.txt', 'unknown'],
  ])('%s is %s', (path, kind) => expect(classifyPath(path)).toBe(kind));
});

describe('listMemoryRoot', () => {
  it('lists every file by kind with size and mtime, skipping .git, flagging symlinks', async () => {
    await withTempDir(async (root) => {
      await put(root, 'memory_summary.md', 'v1\n## User Profile\n');
      await put(root, 'MEMORY.md');
      await put(root, 'rollout_summaries/a.md');
      await put(root, 'rollout_summaries/b.md');
      await put(root, 'skills/s/SKILL.md');
      await put(root, '.git/HEAD', 'ref: refs/heads/main\n');
      await put(root, 'stray.bin', Buffer.from([0, 1, 2]));
      await symlink('/etc/hostname', join(root, 'rollout_summaries/link.md'));
      const list = await listMemoryRoot(root, 'v1');
      expect(list.files.map((f) => f.path)).toEqual([
        'MEMORY.md',
        'memory_summary.md',
        'rollout_summaries/a.md',
        'rollout_summaries/b.md',
        'rollout_summaries/link.md',
        'skills/s/SKILL.md',
        'stray.bin',
      ]);
      expect(list.counts['rollout-summary']).toBe(3);
      expect(list.counts.summary).toBe(1);
      expect(list.counts.unknown).toBe(1);
      expect(list.files.find((f) => f.path === 'memory_summary.md')).toMatchObject({ kind: 'summary', size: 19, symlink: false });
      expect(list.files.find((f) => f.path.endsWith('link.md'))?.symlink).toBe(true);
      expect(list.diagnostics.map((d) => d.rule)).toEqual(['workspace/symlink']);
      expect(list.files.every((f) => f.mtimeMs > 0)).toBe(true);
    });
  });

  it('refuses a missing root and a symlinked root with clear errors', async () => {
    await withTempDir(async (dir) => {
      await expectFailure(listMemoryRoot(join(dir, 'memories'), 'v1'), 'NotFound', /no v1 memory folder/);
      await mkdir(join(dir, 'real'));
      await symlink(join(dir, 'real'), join(dir, 'memories_v2'));
      await expectFailure(listMemoryRoot(join(dir, 'memories_v2'), 'v2'), 'Unsupported', /symlink/);
    });
  });
});

describe('checkRelativePath', () => {
  it.each([
    ['', /empty/],
    ['../etc/passwd', /climbs out/],
    ['rollout_summaries/../../x', /climbs out/],
    ['/etc/passwd', /absolute/],
    ['C:/Windows/win.ini', /absolute/],
    ['a\\b.md', /backslash/],
    ['a//b.md', /empty/],
    ['./MEMORY.md', /empty or "."/],
    ['.git/config', /\.git/],
    ['a\0b', /NUL/],
  ])('refuses %j', (input, reason) => {
    expect(() => checkRelativePath(input)).toThrow(reason);
  });

  it('accepts ordinary relative paths', () => {
    expect(checkRelativePath('rollout_summaries/x.md')).toEqual(['rollout_summaries', 'x.md']);
  });
});

describe('readMemoryFile', () => {
  it('reads UTF-8 text exactly, with line count and line endings', async () => {
    await withTempDir(async (root) => {
      const text = '\uFEFFv1\r\n## User Profile\r\nÜmlaut 🙂 日本語\r\n';
      await put(root, 'memory_summary.md', text);
      const file = await readMemoryFile(root, 'v1', 'memory_summary.md');
      expect(file.content).toBe(text);
      expect(file.eol).toBe('crlf');
      expect(file.lineCount).toBe(4);
      expect(file.kind).toBe('summary');
      expect(file.size).toBe(Buffer.byteLength(text));
    });
  });

  it('says what an edit amounts to: curated by people, regenerated by Codex, or not edited here', async () => {
    const expected = {
      'memory_summary.md': 'curated',
      'MEMORY.md': 'curated',
      'skills/pdf/SKILL.md': 'curated',
      'skills/pdf/scripts/run.sh': 'curated',
      'extensions/ad_hoc/notes/2026-03-01T00-00-00-note.md': 'curated',
      'raw_memories.md': 'regenerated',
      'rollout_summaries/2026-03-02T17-05-44-k3Qz-x.md': 'regenerated',
      'phase2_workspace_diff.md': 'none',
      'extensions/chronicle/instructions.md': 'none',
      'notes.txt': 'none',
    } as const;
    await withTempDir(async (root) => {
      for (const rel of Object.keys(expected)) await put(root, rel, 'x\n');
      for (const [rel, editing] of Object.entries(expected)) expect((await readMemoryFile(root, 'v1', rel)).editing, rel).toBe(editing);
    });
  });

  it('says which file Codex injects into every prompt (the budget lens): the root summary only', async () => {
    await withTempDir(async (root) => {
      for (const rel of ['memory_summary.md', 'MEMORY.md', 'skills/notes/memory_summary.md', 'rollout_summaries/memory_summary.md'])
        await put(root, rel, '- an entry\n');
      expect((await readMemoryFile(root, 'v2', 'memory_summary.md')).injected).toBe(true);
      for (const rel of ['MEMORY.md', 'skills/notes/memory_summary.md', 'rollout_summaries/memory_summary.md'])
        expect((await readMemoryFile(root, 'v2', rel)).injected, rel).toBe(false);
    });
  });

  it('refuses paths that escape the root, even through a symlinked folder', async () => {
    await withTempDir(async (dir) => {
      const root = join(dir, 'memories');
      await put(root, 'MEMORY.md');
      await put(dir, 'secret.md', 'secret');
      await symlink(dir, join(root, 'escape'));
      await expectFailure(readMemoryFile(root, 'v1', '../secret.md'), 'Invalid', /climbs out/);
      await expectFailure(readMemoryFile(root, 'v1', 'escape/secret.md'), 'Unsupported', /symlink/);
      await expectFailure(readMemoryFile(root, 'v1', join(dir, 'secret.md')), 'Invalid', /absolute/);
    });
  });

  it('refuses a symlinked file, a folder, and a missing file', async () => {
    await withTempDir(async (dir) => {
      const root = join(dir, 'memories');
      await put(root, 'skills/s/SKILL.md');
      await put(dir, 'outside.md', 'outside');
      await symlink(join(dir, 'outside.md'), join(root, 'MEMORY.md'));
      await expectFailure(readMemoryFile(root, 'v1', 'MEMORY.md'), 'Unsupported', /symlink/);
      await expectFailure(readMemoryFile(root, 'v1', 'skills'), 'Invalid', /not a regular file/);
      const missing = await expectFailure(readMemoryFile(root, 'v1', 'nope.md'), 'NotFound', /does not exist/);
      expect(missing.hint).toMatch(/refresh/);
    });
  });

  it('refuses files over the cap, binary files and invalid UTF-8 with the line', async () => {
    await withTempDir(async (root) => {
      await put(root, 'MEMORY.md', 'a'.repeat(2048));
      await put(root, 'raw_memories.md', Buffer.from('abc\0def'));
      await put(root, 'memory_summary.md', Buffer.concat([Buffer.from('v1\nline two\n'), Buffer.from([0xc3, 0x28])]));
      const big = await expectFailure(readMemoryFile(root, 'v1', 'MEMORY.md', 1024), 'Unsupported', /more than the 1 KiB/);
      expect(big.path).toBe('MEMORY.md');
      await expectFailure(readMemoryFile(root, 'v1', 'raw_memories.md'), 'Unsupported', /binary/);
      await expectFailure(
        readMemoryFile(root, 'v1', 'memory_summary.md'),
        'Invalid',
        /not valid UTF-8 \(first bad byte at offset 12, line 3\)/,
      );
    });
  });

  it('resolveInsideRoot allows a not-yet-existing target inside the root', async () => {
    await withTempDir(async (root) => {
      const target = await resolveInsideRoot(root, 'extensions/ad_hoc/notes/new.md');
      expect(target).toBe(join(root, 'extensions/ad_hoc/notes/new.md'));
    });
  });
});

describe('Codex 0.169.0 layout details', () => {
  it('leaves .codex-baseline/ (the baseline lock) out of the listing and refuses paths into it', async () => {
    await withTempDir(async (dir) => {
      const root = join(dir, 'memories_v2');
      await mkdir(join(root, '.codex-baseline', '.git'), { recursive: true });
      await writeFile(join(root, '.codex-baseline', '.git', 'codex-baseline.lock'), '');
      await writeFile(join(root, 'memory_summary.md'), 'v1\n');
      const list = await listMemoryRoot(root, 'v2');
      expect(list.files.map((f) => f.path)).toEqual(['memory_summary.md']);
      expect(list.counts.unknown).toBe(0);
      await expect(readMemoryFile(root, 'v2', '.codex-baseline/.git/codex-baseline.lock')).rejects.toThrow(/codex-baseline/);
    });
  });

  it('marks extension resources with what the 7-day pruner does, and names Chronicle’s summaries', async () => {
    await withTempDir(async (dir) => {
      const root = join(dir, 'memories_v2');
      const res = join(root, 'extensions', 'chronicle', 'resources');
      await mkdir(res, { recursive: true });
      await writeFile(join(root, 'extensions', 'chronicle', 'instructions.md'), '# Chronicle\n');
      await writeFile(join(res, '2026-11-20T10-00-00-10min-editor.md'), 'old\n');
      await writeFile(join(res, '2026-11-30T10-00-00-6h-day.md'), 'new\n');
      await writeFile(join(res, 'pinned.md'), 'no timestamp\n');
      await mkdir(join(root, 'extensions', 'other', 'resources'), { recursive: true });
      await writeFile(join(root, 'extensions', 'other', 'resources', '2026-11-01T00-00-00-x.md'), 'no instructions\n');
      const now = Date.UTC(2026, 11, 1) / 1000;
      const list = await listMemoryRoot(root, 'v2', now);
      const info = (p: string) => list.files.find((f) => f.path.endsWith(p))?.resource;
      expect(info('10min-editor.md')).toMatchObject({ extension: 'chronicle', expired: true, label: 'Chronicle 10-minute summary' });
      expect(info('6h-day.md')).toMatchObject({
        expired: false,
        expiresAt: Date.UTC(2026, 11, 7, 10) / 1000,
        label: 'Chronicle 6-hour summary',
      });
      expect(info('pinned.md')).toMatchObject({ expiresAt: null, expired: false });
      expect(info('2026-11-01T00-00-00-x.md')).toMatchObject({ extension: 'other', expiresAt: null, expired: false });
    });
  });
});
