// The persistent index on real generated homes: its answers equal reading the files, it follows every change, and a
// damaged, newer-format or full index is rebuilt or turned off with a message while everything keeps working.
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { inspectHome } from '../../../electron/core/codex/home';
import { lintWithIndex, rolloutsWithIndex } from '../../../electron/core/index-store/inspect';
import { IndexManager } from '../../../electron/core/index-store/manager';
import { indexPathFor } from '../../../electron/core/index-store/open-index';
import { addReferenceLint, emptyReport, mergeLintReports } from '../../../electron/core/inspect/reference-lint';
import { buildRolloutTable } from '../../../electron/core/inspect/rollouts';
import { parserLintRule } from '../../../electron/core/inspect/parser-lint';
import { lintRoot } from '../../../electron/core/lint';
import { createStudioService } from '../../../electron/core/service/service';
import { generateHome } from '../../fixtures';
import { makeTempDir } from '../helpers';

const NOW = new Date('2026-11-20T12:00:00Z');
let tmp: { dir: string; cleanup: () => Promise<void> };
let seq = 0;

beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.cleanup());

async function freshHome(): Promise<{ home: HomeInfo; dataDir: string }> {
  const dir = join(tmp.dir, `case-${seq++}`);
  const manifest = await generateHome({ dir: join(dir, 'home'), scale: 'small', version: 'both', seed: 5, now: NOW });
  return { home: await inspectHome({ codexHome: manifest.codexHome, source: 'flag' }), dataDir: join(dir, 'data') };
}

/** What the app answered before the index: the per-file lint and the whole-home rules, reading every file. */
async function lintFromFiles(home: HomeInfo, version: MemoryVersion, root: string) {
  const own = await lintRoot(root, version, { maxUnusedDays: home.config.memories.maxUnusedDays, extraRules: [parserLintRule] });
  return mergeLintReports(own, await addReferenceLint(emptyReport(version), home, version, root));
}

const rootOf = (home: HomeInfo, version: MemoryVersion) => home.roots.find((r) => r.version === version)?.path as string;

/** Problems of every kind the lint knows, planted in both roots. */
async function plantProblems(home: HomeInfo): Promise<void> {
  const v1 = rootOf(home, 'v1');
  const v2 = rootOf(home, 'v2');
  await writeFile(
    join(v1, 'extensions/ad_hoc/notes/2026-11-20T12-00-00-key.md'),
    'Deploy with OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz0123 today.\n',
  );
  await writeFile(join(v1, 'extensions/ad_hoc/notes/2026-11-20T12-00-01-binary.md'), Buffer.from([0x61, 0x00, 0x62]));
  await writeFile(join(v1, 'extensions/ad_hoc/notes/2026-11-20T12-00-02-latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  await symlink(join(v1, 'MEMORY.md'), join(v1, 'skills', 'linked.md'));
  await mkdir(join(v1, '.git', 'hooks'), { recursive: true });
  await symlink('/etc/hostname', join(v1, '.git', 'hooks', 'pre-commit'));
  const summary = await readFile(join(v2, 'memory_summary.md'), 'utf8');
  const bogus = '- rollout_summaries/2026-01-01T00-00-00-AAAA-gone.md — pruned; thread_id=01900000-0000-7000-8000-000000000000\n';
  await writeFile(join(v2, 'memory_summary.md'), summary.replace('### Older Memory Topics', `${bogus}### Older Memory Topics`));
  await rm(join(v1, 'memory_summary.md'));
}

describe('answers from the index', () => {
  it('lint and the rollout table equal what reading the files gives, problems of every kind included', async () => {
    const { home, dataDir } = await freshHome();
    await plantProblems(home);
    const manager = new IndexManager({ dataDir, scanOnPool: false });
    try {
      const indexed = await manager.fresh(home);
      if (!indexed) throw new Error(manager.status().message);
      for (const version of ['v1', 'v2'] as const) {
        const fromIndex = await lintWithIndex(indexed, version);
        expect(fromIndex).toEqual(await lintFromFiles(home, version, rootOf(home, version)));
        const table = await rolloutsWithIndex(indexed, version);
        expect({ ...table, elapsedMs: 0 }).toEqual({ ...(await buildRolloutTable(home, version, rootOf(home, version))), elapsedMs: 0 });
      }
      const v1 = await lintWithIndex(indexed, 'v1');
      const rules = v1.files.flatMap((f) => f.diagnostics.map((d) => `${f.path} ${d.rule}`));
      expect(rules).toEqual(
        expect.arrayContaining([
          'extensions/ad_hoc/notes/2026-11-20T12-00-00-key.md secrets/openai-key',
          'extensions/ad_hoc/notes/2026-11-20T12-00-01-binary.md lint/unreadable',
          'extensions/ad_hoc/notes/2026-11-20T12-00-02-latin1.md lint/unreadable',
          'skills/linked.md codex/no-symlinks',
          '.git/hooks/pre-commit codex/no-symlinks',
          'memory_summary.md codex/summary-first-line',
        ]),
      );
      const v2 = await lintWithIndex(indexed, 'v2');
      expect(v2.files.find((f) => f.path === 'memory_summary.md')?.diagnostics.map((d) => d.rule)).toEqual(
        expect.arrayContaining(['template/pointer-target', 'template/thread-known']),
      );
    } finally {
      manager.dispose();
    }
  });

  it('follows a change, an addition and a removal, re-reading only those files', async () => {
    const { home, dataDir } = await freshHome();
    const manager = new IndexManager({ dataDir, scanOnPool: false });
    let built = 0;
    const counting = new IndexManager({ dataDir, scanOnPool: false, onStatus: (s) => s.state === 'building' && (built = s.total) });
    try {
      const first = await manager.fresh(home);
      expect(first?.generation).toBeGreaterThan(0);
      manager.dispose();
      const v1 = rootOf(home, 'v1');
      await writeFile(
        join(v1, 'extensions/ad_hoc/notes/2026-11-20T12-00-00-new.md'),
        'Use token=abcdefghijklmnopqrstuvwx0123 for staging.\n',
      );
      await writeFile(join(v1, 'MEMORY.md'), `${await readFile(join(v1, 'MEMORY.md'), 'utf8')}\n`);
      await rm(join(v1, 'raw_memories.md'));
      const again = await counting.fresh(home);
      if (!again) throw new Error('index off');
      expect(built).toBe(2); // the new note and MEMORY.md; the removal needs no read
      expect(again.generation).toBeGreaterThan(first?.generation ?? 0);
      expect(await lintWithIndex(again, 'v1')).toEqual(await lintFromFiles(home, 'v1', v1));
      built = 0;
      await counting.fresh(home);
      expect(built).toBe(0); // nothing changed: the stat-only pass reads no file
    } finally {
      counting.dispose();
    }
  });
});

describe('an index that cannot be used as it is', () => {
  it('a damaged file is rebuilt, with a notice', async () => {
    const { home, dataDir } = await freshHome();
    const path = indexPathFor(dataDir, home.codexHome);
    await mkdir(join(dataDir, 'index'), { recursive: true });
    await writeFile(path, Buffer.alloc(8192, 0x5a));
    const manager = new IndexManager({ dataDir, scanOnPool: false });
    try {
      const indexed = await manager.fresh(home);
      expect(indexed).not.toBeNull();
      expect(manager.status().notice).toMatch(/was damaged .*rebuilt from your memory files/);
      expect((await lintWithIndex(indexed as NonNullable<typeof indexed>, 'v1')).scannedFiles).toBeGreaterThan(5);
    } finally {
      manager.dispose();
    }
  });

  it('one from a newer Memory Studio is rebuilt for this version, with a notice', async () => {
    const { home, dataDir } = await freshHome();
    const first = new IndexManager({ dataDir, scanOnPool: false });
    await first.fresh(home);
    first.dispose();
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(indexPathFor(dataDir, home.codexHome));
    db.pragma('user_version = 99');
    db.close();
    const manager = new IndexManager({ dataDir, scanOnPool: false });
    try {
      expect(await manager.fresh(home)).not.toBeNull();
      expect(manager.status().notice).toMatch(/newer Memory Studio \(index format 99; this one reads \d+\), so it was rebuilt/);
    } finally {
      manager.dispose();
    }
  });

  it('a full disk turns the index off with a message, and the app keeps answering from the files', async () => {
    const { home, dataDir } = await freshHome();
    // SQLite's page limit gives the real "database or disk is full" error part-way through the first build.
    const service = createStudioService({
      home: { codexHome: home.codexHome, source: 'flag' },
      dataDir,
      host: 'serve',
      appVersion: 'test',
      watch: false,
      log: () => undefined,
      indexMaxPages: 40,
    });
    try {
      const report = await service.call('inspect.lint', { version: 'v1' });
      expect(report).toEqual(await lintFromFiles(home, 'v1', rootOf(home, 'v1')));
      const status = await service.call('index.status', {});
      expect(status.state).toBe('off');
      expect(status.message).toMatch(/index is off: the disk holding .* is full .*Everything still works/);
      const search = await service.call('search.query', { query: 'invoice' });
      expect(search.hits).toEqual([]);
      expect(search.notes.join(' ')).toMatch(/disk holding .* is full/);
      expect((await service.call('inspect.rollouts', { version: 'v1' })).rows.length).toBeGreaterThan(0);
    } finally {
      service.dispose();
    }
  });

  it('a cancelled build stops, stays stopped, and finishes when resumed', async () => {
    const { home, dataDir } = await freshHome();
    const controller = new AbortController();
    const manager = new IndexManager({ dataDir, scanOnPool: false, onStatus: (s) => s.state === 'building' && controller.abort() });
    try {
      expect(await manager.fresh(home, { signal: controller.signal })).toBeNull();
      expect(manager.status()).toMatchObject({
        state: 'cancelled',
        message: expect.stringMatching(/cancelled at \d+ of \d+ files; what was indexed is kept/),
      });
      expect(await manager.fresh(home)).toBeNull(); // stays off until resumed: the person asked it to stop
      manager.resume();
      const indexed = await manager.fresh(home);
      expect(indexed).not.toBeNull();
      expect(manager.status().state).toBe('ready');
    } finally {
      manager.dispose();
    }
  });
});
