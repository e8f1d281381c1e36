// Apply engine: stale bases, injected faults, bad targets, Codex's lease interplay and a 10-file plan with a 5 MB file.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyPlan, lockPathFor } from '../../../electron/core/apply';
import { StudioFailure } from '../../../electron/core/platform/errors';
import { makeTempDir } from '../helpers';
import { type TestHome, bigMarkdown, codexClaim, globalRow, leftoverTemps, makeHome, planFor, setGlobalRow } from './helpers';

let home: TestHome;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  const temp = await makeTempDir();
  cleanup = temp.cleanup;
  home = await makeHome(temp.dir);
});
afterEach(async () => cleanup());

async function snapshot(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(home.root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) files.set(join(entry.parentPath, entry.name), await readFile(join(entry.parentPath, entry.name), 'utf8'));
  }
  return files;
}

async function failure(promise: Promise<unknown>): Promise<StudioFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StudioFailure);
  return error as StudioFailure;
}

/** Nothing partial: same files, no temps, lock free, no journal, lease row as before. */
async function expectUntouched(before: Map<string, string>, row: unknown): Promise<void> {
  expect(await snapshot()).toEqual(before);
  expect(leftoverTemps(home.root)).toEqual([]);
  expect(existsSync(lockPathFor(home.dataDir, home.root))).toBe(false);
  expect(await readdir(join(home.dataDir, 'journal')).catch(() => [])).toEqual([]);
  expect(globalRow(home.dbPath)).toEqual(row);
}

describe('applyPlan', () => {
  it('writes, creates and deletes atomically, trashes deletions and leaves the lease pending', async () => {
    const plan = await planFor(home, 'p1', { 'MEMORY.md': '# new\n', 'extensions/ad_hoc/notes/n.md': 'note\n', 'raw_memories.md': null });
    const oldRaw = await readFile(join(home.root, 'raw_memories.md'), 'utf8');
    const outcome = await applyPlan(plan, { dataDir: home.dataDir });
    expect(await readFile(join(home.root, 'MEMORY.md'), 'utf8')).toBe('# new\n');
    expect(await readFile(join(home.root, 'extensions/ad_hoc/notes/n.md'), 'utf8')).toBe('note\n');
    expect(existsSync(join(home.root, 'raw_memories.md'))).toBe(false);
    const trash = await readdir(join(home.dataDir, 'trash'));
    expect(await readFile(join(home.dataDir, 'trash', trash[0] as string, 'v1', 'raw_memories.md'), 'utf8')).toBe(oldRaw);
    expect(outcome.applied.map((a) => a.relPath)).toEqual(['MEMORY.md', 'extensions/ad_hoc/notes/n.md', 'raw_memories.md']);
    expect(outcome.applied[2]?.before).toBe(oldRaw);
    expect(outcome.lease).toEqual([{ version: 'v1', previous: 'pending' }]);
    expect(globalRow(home.dbPath)?.status).toBe('pending');
    expect(leftoverTemps(home.root)).toEqual([]);
  });

  it('stale base: Conflict naming the file, nothing written', async () => {
    const plan = await planFor(home, 'p2', { 'memory_summary.md': 'v1\nnew\n', 'MEMORY.md': '# changed\n' });
    await writeFile(join(home.root, 'MEMORY.md'), '# edited by Codex meanwhile\n');
    const before = await snapshot();
    const row = globalRow(home.dbPath);
    const error = await failure(applyPlan(plan, { dataDir: home.dataDir }));
    expect(error.kind).toBe('Conflict');
    expect(error.message).toContain('MEMORY.md');
    await expectUntouched(before, row);
  });

  it.each([
    {
      label: 'ENOSPC on the first file',
      faults: { failWriteAt: { file: 0, code: 'ENOSPC' as const } },
      file: 'memory_summary.md',
      words: 'disk is full',
    },
    {
      label: 'ENOSPC half-way through the 5 MB file',
      faults: { failWriteAt: { file: 1, afterBytes: 2_000_000, code: 'ENOSPC' as const } },
      file: 'MEMORY.md',
      words: 'disk is full',
    },
    {
      label: 'EACCES on the last file',
      faults: { failWriteAt: { file: 2, code: 'EACCES' as const } },
      file: 'skills/new/SKILL.md',
      words: 'permission denied',
    },
    { label: 'EROFS', faults: { failWriteAt: { file: 1, afterBytes: 10, code: 'EROFS' as const } }, file: 'MEMORY.md', words: 'read-only' },
    { label: 'a failing first rename', faults: { failRenameAt: 0 }, file: 'memory_summary.md', words: 'input/output' },
    {
      label: 'a failing last rename (two already done, undone)',
      faults: { failRenameAt: 2 },
      file: 'skills/new/SKILL.md',
      words: 'input/output',
    },
  ])('fault: $label gives a clear error and nothing partial', async ({ faults, file, words }) => {
    const plan = await planFor(home, 'p3', {
      'memory_summary.md': 'v1\nx\n',
      'MEMORY.md': bigMarkdown(5, 'fault'),
      'skills/new/SKILL.md': '# skill\n',
    });
    const before = await snapshot();
    const row = globalRow(home.dbPath);
    const error = await failure(applyPlan(plan, { dataDir: home.dataDir, faults }));
    expect(error.message).toContain(file);
    expect(error.message).toContain(words);
    expect(error.message).toContain('Nothing was changed');
    expect(error.hint).toBeTruthy();
    await expectUntouched(before, row);
    expect(existsSync(join(home.root, 'skills/new'))).toBe(false);
  });

  it('a failure among many files written at once names that file and leaves no temp file or folder behind', async () => {
    // 24 new files in 12 new folders: several temp files are on their way when the 10th fails, and later ones are done.
    const proposed = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`extensions/many/d${i % 12}/f${i}.md`, `file ${i}\n`]));
    const plan = await planFor(home, 'p-many', proposed);
    const before = await snapshot();
    const row = globalRow(home.dbPath);
    const error = await failure(applyPlan(plan, { dataDir: home.dataDir, faults: { failWriteAt: { file: 9, code: 'ENOSPC' } } }));
    expect(error.message).toContain('extensions/many/d9/f9.md');
    expect(error.message).toContain('Nothing was changed');
    await expectUntouched(before, row);
    expect(existsSync(join(home.root, 'extensions/many'))).toBe(false);
    // The same plan without the fault writes every file.
    await applyPlan(plan, { dataDir: home.dataDir });
    for (const [relPath, content] of Object.entries(proposed)) expect(await readFile(join(home.root, relPath), 'utf8')).toBe(content);
  });

  it('refuses bad targets before writing anything', async () => {
    await mkdir(join(home.root, '.git'), { recursive: true });
    await writeFile(join(home.dataDir, 'outside.md'), 'outside\n');
    await symlink(join(home.dataDir, 'outside.md'), join(home.root, 'link.md'));
    await symlink(home.dataDir, join(home.root, 'linkdir'));
    const before = await snapshot();
    const row = globalRow(home.dbPath);
    const bad = ['../escape.md', '/etc/passwd', 'link.md', 'linkdir/x.md', '.git/x', 'a/../../b.md', 'rollout_summaries'];
    for (const relPath of bad) {
      const plan = {
        id: 'bad',
        files: [{ version: 'v1' as const, root: home.root, relPath, baseSha256: null, content: 'x' }],
        dbPaths: { v1: home.dbPath },
      };
      const error = await failure(applyPlan(plan, { dataDir: home.dataDir }));
      expect(['Invalid', 'Unsupported'], relPath).toContain(error.kind);
    }
    const linkedRoot = join(home.codexHome, 'linked-root');
    await symlink(home.root, linkedRoot);
    const plan = {
      id: 'bad',
      files: [{ version: 'v1' as const, root: linkedRoot, relPath: 'MEMORY.md', baseSha256: null, content: 'x' }],
      dbPaths: { v1: home.dbPath },
    };
    expect((await failure(applyPlan(plan, { dataDir: home.dataDir }))).message).toContain('symlink');
    await expectUntouched(before, row);
    expect(await readFile(join(home.dataDir, 'outside.md'), 'utf8')).toBe('outside\n');
  });

  it('skips the lease when the version has no memory DB, and says so', async () => {
    const plan = await planFor(home, 'p4', { 'MEMORY.md': '# x\n' });
    plan.dbPaths.v1 = join(home.codexHome, 'no-such.sqlite');
    const outcome = await applyPlan(plan, { dataDir: home.dataDir });
    expect(outcome.lease).toEqual([{ version: 'v1', previous: 'absent' }]);
  });
});

describe('Codex interplay', () => {
  it('is refused with Locked while Codex holds a live lease, and writes nothing', async () => {
    const { execFileSync } = await import('node:child_process');
    const { CODEX_CLAIM } = await import('./helpers');
    setGlobalRow(home.dbPath, { finished_at: Math.floor(Date.now() / 1000) - 7 * 3600 });
    const claim = JSON.parse(execFileSync(process.execPath, [CODEX_CLAIM, home.dbPath, 'codex-thread-0199'], { encoding: 'utf8' })) as {
      claimed: boolean;
    };
    expect(claim.claimed).toBe(true);
    const before = await snapshot();
    const row = globalRow(home.dbPath);
    const plan = await planFor(home, 'p5', { 'MEMORY.md': '# nope\n' });
    const error = await failure(applyPlan(plan, { dataDir: home.dataDir }));
    expect(error.kind).toBe('Locked');
    expect(error.message).toMatch(
      /Codex is consolidating memories right now \(lease held by codex-thread-0199 until \d{4}-.+\); try again after that/,
    );
    await expectUntouched(before, row);
  });

  it('leaves no cooldown or backoff: a Codex claim succeeds right after our apply, on a pending row', async () => {
    const old = Math.floor(Date.now() / 1000) - 7 * 3600;
    setGlobalRow(home.dbPath, {
      status: 'done',
      finished_at: old,
      last_error: null,
      retry_at: null,
      retry_remaining: 1,
      input_watermark: 41,
    });
    const before = Math.floor(Date.now() / 1000);
    await applyPlan(await planFor(home, 'p6', { 'MEMORY.md': '# applied\n' }), { dataDir: home.dataDir });
    const row = globalRow(home.dbPath);
    expect(row).toMatchObject({
      status: 'pending',
      finished_at: old,
      last_error: null,
      retry_at: null,
      retry_remaining: 3,
      lease_until: null,
    });
    // Codex's enqueue_global_consolidation(now): now, being past the old watermark 41.
    expect(row?.input_watermark).toBeGreaterThanOrEqual(before);
    expect(row?.input_watermark).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(codexClaim(home.dbPath)).toMatchObject({ claimed: true });
  });

  it('restores the exact previous row when nothing changed, and keeps an existing cooldown as it was', async () => {
    const recent = Math.floor(Date.now() / 1000) - 600;
    setGlobalRow(home.dbPath, { status: 'done', finished_at: recent, last_error: null, retry_at: null });
    const row = globalRow(home.dbPath);
    const same = await readFile(join(home.root, 'MEMORY.md'), 'utf8');
    const outcome = await applyPlan(await planFor(home, 'p7', { 'MEMORY.md': same }), { dataDir: home.dataDir });
    expect(outcome.lease).toEqual([{ version: 'v1', previous: 'restored' }]);
    expect(globalRow(home.dbPath)).toEqual(row);
    expect(codexClaim(home.dbPath).reason).toBe('skipped_cooldown');
  });

  it("is not held back by a failed Codex run: the retry backoff stays Codex's own, restored when nothing changed", async () => {
    const now = Math.floor(Date.now() / 1000);
    setGlobalRow(home.dbPath, {
      status: 'error',
      finished_at: now - 60,
      last_error: 'failed_agent',
      retry_at: now + 3000,
      retry_remaining: 2,
    });
    const row = globalRow(home.dbPath);
    const same = await readFile(join(home.root, 'MEMORY.md'), 'utf8');
    await applyPlan(await planFor(home, 'p9', { 'MEMORY.md': same }), { dataDir: home.dataDir });
    expect(globalRow(home.dbPath)).toEqual(row);
    await applyPlan(await planFor(home, 'p10', { 'MEMORY.md': '# applied during backoff\n' }), { dataDir: home.dataDir });
    expect(globalRow(home.dbPath)).toMatchObject({ status: 'pending', retry_at: null, lease_until: null });
  });

  it('deletes a row it had to insert when nothing changed', async () => {
    setGlobalRow(home.dbPath, { kind: 'gone' });
    const same = await readFile(join(home.root, 'MEMORY.md'), 'utf8');
    await applyPlan(await planFor(home, 'p8', { 'MEMORY.md': same }), { dataDir: home.dataDir });
    expect(globalRow(home.dbPath)).toBeUndefined();
  });
});

// The 10-file Apply's time is a bench figure (test/bench/cli-figures.mjs); here only what it writes is checked.
describe('a 10-file plan with a 5 MB MEMORY.md', () => {
  it('writes every file whole, five times over, and leaves no temp file, lock or journal', async () => {
    const files: Record<string, string> = { 'MEMORY.md': bigMarkdown(5, 'figure') };
    for (let i = 0; i < 9; i++) files[`rollout_summaries/figure-${i}.md`] = `# summary ${i}\n`.repeat(200);
    for (let run = 0; run < 5; run++) {
      for (const key of Object.keys(files)) files[key] = `${files[key]}run ${run}\n`;
      await applyPlan(await planFor(home, `fig-${run}`, files), { dataDir: home.dataDir });
      for (const [relPath, content] of Object.entries(files)) expect(await readFile(join(home.root, relPath), 'utf8')).toBe(content);
    }
    expect(leftoverTemps(home.root)).toEqual([]);
    expect(existsSync(lockPathFor(home.dataDir, home.root))).toBe(false);
  });
});
