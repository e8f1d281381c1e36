// The inspect and provenance channels end to end through the core service, on generated homes with planted problems.
import { appendFile, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { generateHome, type HomeManifest } from '../../fixtures';
import { makeTempDir } from '../helpers';

let temp: { dir: string; cleanup: () => Promise<void> };
let manifest: HomeManifest;
let service: StudioService;

beforeAll(async () => {
  temp = await makeTempDir();
  manifest = await generateHome({
    dir: join(temp.dir, 'home'),
    scale: 'small',
    version: 'both',
    seed: 11,
    now: new Date('2026-11-20T12:00:00Z'),
  });
  service = createStudioService({
    home: { codexHome: manifest.codexHome, source: 'flag' },
    dataDir: join(temp.dir, 'data'),
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
  });
});

afterAll(async () => {
  service.dispose();
  await temp.cleanup();
});

describe('inspect channels', () => {
  it('parses a summary into an outline without its source lines', async () => {
    const parsed = await service.call('inspect.parse', { version: 'v2', path: 'memory_summary.md' });
    expect(parsed.kind).toBe('memory_summary');
    expect('source' in parsed).toBe(false);
    if (parsed.kind !== 'memory_summary') throw new Error('kind');
    expect(parsed.pointers.length).toBeGreaterThan(0);
    expect(parsed.sections.map((s) => s.title)).toEqual(expect.arrayContaining(['User Profile', "What's in Memory"]));
  });

  it('lists every rollout summary with header, project and usage', async () => {
    const table = await service.call('inspect.rollouts', { version: 'v1' });
    expect(table.rows).toHaveLength(manifest.roots.v1?.counts['rollout-summary'] ?? -1);
    for (const row of table.rows) {
      expect(row.threadId).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.cwd).toMatch(/^\/home\/dana\/src\//);
      expect(row.project).toBe(row.cwd?.split('/').pop());
      expect(row.title).toBeTruthy();
    }
    expect(table.rows.some((r) => r.citations > 0)).toBe(true);
    expect(table.rows.some((r) => (r.dbUsageCount ?? 0) > 0)).toBe(true);
  });

  it('counts a summary as cited only by blocks of its own root, as the never-cited filter does', async () => {
    for (const version of ['v1', 'v2'] as const) {
      const table = await service.call('inspect.rollouts', { version });
      const never = await service.call('provenance.neverCited', { version });
      const unusedRows = table.rows
        .filter((r) => r.citations === 0 && !r.dbUsageCount)
        .map((r) => r.path)
        .sort();
      const neverSummaries = never.files
        .filter((f) => f.kind === 'rollout-summary')
        .map((f) => f.path)
        .sort();
      expect(unusedRows, version).toEqual(neverSummaries);
    }
  });

  it('groups entries by project with nothing misfiled in a clean home', async () => {
    const lens = await service.call('inspect.projects', { version: 'v1' });
    expect(lens.projects.length).toBeGreaterThanOrEqual(3);
    expect(lens.misfiled).toEqual([]);
    const kinds = new Set(lens.projects.flatMap((p) => p.entries.map((e) => e.kind)));
    expect([...kinds].sort()).toEqual(['import-resource', 'memory-block', 'raw-thread', 'rollout-summary', 'summary-scope']);
  });

  it('follows a pointer to its rollout summary and on to its session, and shows the session', async () => {
    const parsed = await service.call('inspect.parse', { version: 'v2', path: 'memory_summary.md' });
    if (parsed.kind !== 'memory_summary') throw new Error('kind');
    const pointer = parsed.pointers[0];
    if (!pointer) throw new Error('no pointer');
    const resolved = await service.call('provenance.pointer', {
      version: 'v2',
      file: pointer.file,
      threadIdHint: pointer.threadId ?? undefined,
    });
    expect(resolved.exists).toBe(true);
    expect(resolved.threadId).toBe(pointer.threadId);
    expect(resolved.sessionExists).toBe(true);
    const session = await service.call('provenance.session', { threadId: resolved.threadId as string });
    expect(session.threadId).toBe(pointer.threadId);
    expect(session.path).toBe(resolved.sessionPath);
  });

  it('refuses a session the catalog places outside the home', async () => {
    const result = await service.dispatch('provenance.session', { threadId: 'not-a-thread' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'NotFound' } });
  });
});

describe('inspect.lint reference rules', () => {
  it('flags a pointer to a missing file and an unknown thread id, and stale summaries', async () => {
    const root = join(manifest.codexHome, 'memories_v2');
    const summary = await readFile(join(root, 'memory_summary.md'), 'utf8');
    const bogus =
      '- rollout_summaries/2026-01-01T00-00-00-AAAA-gone.md — a session that was pruned; thread_id=01900000-0000-7000-8000-000000000000\n';
    await writeFile(join(root, 'memory_summary.md'), summary.replace('### Older Memory Topics', `${bogus}### Older Memory Topics`));
    const report = await service.call('inspect.lint', { version: 'v2' });
    const rules = report.files.find((f) => f.path === 'memory_summary.md')?.diagnostics.map((d) => d.rule) ?? [];
    expect(rules).toContain('template/pointer-target');
    expect(rules).toContain('template/thread-known');
    expect(report.counts.error).toBeGreaterThan(0);
    await writeFile(join(root, 'memory_summary.md'), summary);
    const clean = await service.call('inspect.lint', { version: 'v2' });
    expect(
      clean.files.find((f) => f.path === 'memory_summary.md')?.diagnostics.filter((d) => d.rule.startsWith('template/pointer')) ?? [],
    ).toEqual([]);
  });

  it('lints one file exactly as the whole-root lint reports it', async () => {
    const root = join(manifest.codexHome, 'memories_v2');
    const summary = await readFile(join(root, 'memory_summary.md'), 'utf8');
    const bogus = '- rollout_summaries/2026-01-01T00-00-00-AAAA-gone.md — pruned; thread_id=01900000-0000-7000-8000-000000000000\n';
    await writeFile(join(root, 'memory_summary.md'), summary.replace('### Older Memory Topics', `${bogus}### Older Memory Topics`));
    try {
      const whole = await service.call('inspect.lint', { version: 'v2' });
      for (const path of ['memory_summary.md', ...whole.files.map((f) => f.path)]) {
        const one = await service.call('inspect.lint', { version: 'v2', path });
        const expected = whole.files.find((f) => f.path === path)?.diagnostics ?? [];
        expect(one.files.find((f) => f.path === path)?.diagnostics ?? [], path).toEqual(expected);
        expect(one.files.every((f) => f.path === path)).toBe(true);
      }
      const one = await service.call('inspect.lint', { version: 'v2', path: 'memory_summary.md' });
      expect(one.counts.error).toBeGreaterThan(0);
    } finally {
      await writeFile(join(root, 'memory_summary.md'), summary);
    }
  });

  it('reports rollout summaries unused for longer than max_unused_days as stale', async () => {
    const old = await makeTempDir();
    try {
      const home = await generateHome({
        dir: join(old.dir, 'home'),
        scale: 'small',
        version: 'v1',
        seed: 3,
        now: new Date('2025-06-01T00:00:00Z'),
      });
      const oldService = createStudioService({
        home: { codexHome: home.codexHome, source: 'flag' },
        dataDir: join(old.dir, 'data'),
        host: 'serve',
        appVersion: 'test',
        watch: false,
        log: () => undefined,
      });
      const report = await oldService.call('inspect.lint', { version: 'v1' });
      const stale = report.files.filter((f) => f.diagnostics.some((d) => d.rule === 'usage/stale'));
      const summaries = (await readdir(join(home.codexHome, 'memories', 'rollout_summaries'))).length;
      expect(stale.length).toBe(summaries);
      oldService.dispose();
    } finally {
      await old.cleanup();
    }
  });

  it('finds a planted secret and reports the CLI-visible counts', async () => {
    const note = join(manifest.codexHome, 'memories', 'extensions', 'ad_hoc', 'notes', '2026-11-20T12-00-00-deploy-key.md');
    await writeFile(note, 'Deploy with OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz0123 when staging is down.\n');
    await appendFile(note, '');
    const report = await service.call('inspect.lint', { version: 'v1' });
    const diagnostics = report.files.find((f) => f.path.endsWith('deploy-key.md'))?.diagnostics ?? [];
    expect(diagnostics.map((d) => d.rule)).toContain('secrets/openai-key');
    expect(diagnostics[0]?.fix?.edits[0]?.text).toContain('[REDACTED_SECRET]');
  });
});
