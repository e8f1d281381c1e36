// The consolidation input preview on generated homes: selection vs the live root, extensions, hand edits, tokens and the lease.
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { namespaceId } from '../../../electron/core/platform/host-identity';
import { previewInputs } from '../../../electron/core/consolidate/preview';
import { openSqlite } from '../../../electron/core/platform/sqlite';
import { cleanupTemps, DAY, generatedHome, hashTree, inspect, NOW_SEC } from './fixture';

afterEach(cleanupTemps);

const options = { engine: 'codex' as const, model: 'gpt-5.4', nowSec: NOW_SEC };

function setGlobal(dbPath: string, values: Record<string, unknown>): void {
  const db = openSqlite(dbPath);
  try {
    const sets = Object.keys(values)
      .map((k) => `${k} = @${k}`)
      .join(', ');
    db.prepare(`UPDATE jobs SET ${sets} WHERE kind = 'memory_consolidate_global' AND job_key = 'global'`).run(values);
  } finally {
    db.close();
  }
}

describe('previewInputs', () => {
  it('shows a generated home as Codex would consolidate it: nothing to add or remove, its notes, imports and tokens', async () => {
    const { home, root } = await generatedHome('v1', true);
    const before = await hashTree(root);
    const p = await previewInputs(home, 'v1', options);
    const live = (await readdir(join(root, 'rollout_summaries'))).sort();
    expect(p.selection.rows.map((r) => `${r.stem}.md`).sort()).toEqual(live);
    for (const r of p.selection.rows) expect(r.bytes).toBe((await stat(join(root, 'rollout_summaries', `${r.stem}.md`))).size);
    expect(p.selection.bytes).toBe(p.selection.rows.reduce((n, r) => n + r.bytes, 0));
    expect(p.selection).toMatchObject({ added: [], removed: [], excludedNotEnabled: 0 });
    expect(p.adHocNotes.count).toBe(3);
    expect(p.imports.projects).toEqual(['-home-dana-src-webapp']);
    expect(p.imports.count).toBe(p.imports.paths.length);
    expect(p.handEdits).toEqual({ hasBaseline: true, files: [] });
    expect(p.tokens.out).toBeGreaterThan(0);
    expect(p.tokens.in).toBeGreaterThan(p.tokens.out);
    expect(p).toMatchObject({ version: 'v1', root, engine: 'codex', model: 'gpt-5.4' });
    expect(p.lease.state).toBe('free');
    expect(await hashTree(root)).toEqual(before);
  });

  it('lists summaries the sync adds and removes, expired resources and hand edits since the baseline', async () => {
    const { home, root } = await generatedHome('v1', true);
    const [first] = (await readdir(join(root, 'rollout_summaries'))).sort();
    await rm(join(root, 'rollout_summaries', first as string));
    await writeFile(join(root, 'rollout_summaries', 'stray.md'), 'old\n');
    await writeFile(join(root, 'MEMORY.md'), '# edited by hand\n');
    await mkdir(join(root, 'extensions', 'foo', 'resources'), { recursive: true });
    await writeFile(join(root, 'extensions', 'foo', 'instructions.md'), 'rules\n');
    await writeFile(join(root, 'extensions', 'foo', 'resources', '2026-02-01T00-00-00-old.md'), 'old\n');
    await writeFile(join(root, 'extensions', 'foo', 'resources', '2026-03-04T00-00-00-new.md'), 'new\n');
    const p = await previewInputs(home, 'v1', { ...options, engine: 'builtin' });
    expect(p.model).toBeNull();
    expect(p.selection.added).toEqual([`rollout_summaries/${first}`]);
    expect(p.selection.removed).toEqual(['rollout_summaries/stray.md']);
    expect(p.extensionResources).toEqual({
      count: 2,
      bytes: 8,
      paths: ['extensions/foo/resources/2026-02-01T00-00-00-old.md', 'extensions/foo/resources/2026-03-04T00-00-00-new.md'],
      expired: ['extensions/foo/resources/2026-02-01T00-00-00-old.md'],
    });
    expect(p.handEdits.files).toEqual(
      expect.arrayContaining([
        { path: 'MEMORY.md', status: 'modified' },
        { path: `rollout_summaries/${first}`, status: 'deleted' },
        { path: 'rollout_summaries/stray.md', status: 'added' },
      ]),
    );
  });

  it("reads the lease: held by Codex, held by Memory Studio, free under Codex's cooldown, no DB", async () => {
    const { dir, home } = await generatedHome('v1', false);
    const dbPath = join(dir, 'memories_1.sqlite');
    setGlobal(dbPath, { status: 'running', worker_id: 'codex-thread-1', lease_until: NOW_SEC + 600, last_error: null, retry_at: null });
    let lease = (await previewInputs(home, 'v1', options)).lease;
    expect(lease).toMatchObject({ state: 'held', holder: 'codex-thread-1', leaseUntil: NOW_SEC + 600 });
    expect(lease.message).toMatch(/Codex is consolidating/);
    setGlobal(dbPath, { worker_id: 'memory-studio:4242' });
    expect((await previewInputs(home, 'v1', options)).lease.state).toBe('held-by-studio');
    // A Memory Studio process of this machine that is gone: said so, with what happens next.
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid as number;
    setGlobal(dbPath, { worker_id: `memory-studio:${dead}@${namespaceId()}` });
    lease = (await previewInputs(home, 'v1', options)).lease;
    expect(lease.state).toBe('held-by-dead-studio');
    expect(lease.message).toMatch(new RegExp(`process ${dead}, which is no longer running.*A run started here takes it over`));
    setGlobal(dbPath, { status: 'running', worker_id: 'codex-thread-1', lease_until: NOW_SEC - 1 });
    expect((await previewInputs(home, 'v1', options)).lease.state).toBe('free');
    setGlobal(dbPath, { status: 'done', lease_until: null, finished_at: NOW_SEC - 3600, last_error: null, retry_at: NOW_SEC + DAY });
    lease = (await previewInputs(home, 'v1', options)).lease;
    expect(lease).toMatchObject({ state: 'free', cooldownUntil: NOW_SEC - 3600 + 21_600, retryAt: NOW_SEC + DAY });
    expect(lease.message).toMatch(/does not block a manual run/);
    await rm(dbPath);
    const gone = await previewInputs(await inspect(dir), 'v1', options);
    expect(gone.lease.state).toBe('no-db');
    expect(gone.selection.rows).toEqual([]);
    expect(gone.notes.join(' ')).toMatch(/does not exist/);
  });
});
