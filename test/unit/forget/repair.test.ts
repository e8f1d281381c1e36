// Pipeline repairs on generated homes: a failed extraction made claimable again and a stuck consolidation job
// reclaimed, each a reviewed compare-and-swap of one jobs row, applied, recorded, reverted, refused when stale.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireLockFile, releaseLockFile } from '../../../electron/core/apply/lock-file';
import { commitDbChangesAt, planReclaim, planRetry, type RepairPlan } from '../../../electron/core/forget';
import { inspectHome } from '../../../electron/core/codex/home';
import { createProposal } from '../../../electron/core/review';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { openStudioDb } from '../../../electron/core/studio-db';
import type { HomeInfo } from '../../../shared/domain';
import { generateHome, type HomeManifest } from '../../fixtures';
import { makeTempDir } from '../helpers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

interface World {
  manifest: HomeManifest;
  home: HomeInfo;
  service: StudioService;
  dataDir: string;
  memoryDb: string;
}

async function setUp(): Promise<World> {
  const temp = await makeTempDir();
  const manifest = await generateHome({ dir: join(temp.dir, 'home'), scale: 'small', version: 'v2', seed: 9, git: false, now: new Date() });
  const dataDir = join(temp.dir, 'data');
  const service = createStudioService({
    home: { codexHome: manifest.codexHome, source: 'flag' },
    dataDir,
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
  });
  cleanups.push(async () => {
    service.dispose();
    await temp.cleanup();
  });
  const home = await inspectHome({ codexHome: manifest.codexHome, source: 'flag' });
  return { manifest, home, service, dataDir, memoryDb: join(manifest.codexHome, 'memories_v2_1.sqlite') };
}

const now = () => Math.floor(Date.now() / 1000);

function write(path: string, sql: string, ...params: unknown[]): void {
  const db = new Database(path);
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

function job(path: string, kind: string, key: string): Record<string, unknown> | undefined {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT * FROM jobs WHERE kind = ? AND job_key = ?').get(kind, key) as Record<string, unknown> | undefined;
  } finally {
    db.close();
  }
}

/** An interactive, enabled thread inside phase 1's window, its extraction failed and backing off (as Codex leaves one). */
function failedThread(w: World, retry: { remaining: number; retryAt: number | null }): string {
  const state = new Database(join(w.manifest.codexHome, 'state_5.sqlite'));
  let id: string;
  try {
    id = (
      state
        .prepare("SELECT id FROM threads WHERE memory_mode = 'enabled' AND archived = 0 AND source IN ('cli','vscode') LIMIT 1")
        .get() as {
        id: string;
      }
    ).id;
    const updated = now() - 3 * 3600;
    state.prepare('UPDATE threads SET updated_at = ?, updated_at_ms = ? WHERE id = ?').run(updated, updated * 1000, id);
    const memory = new Database(w.memoryDb);
    try {
      memory.prepare('DELETE FROM stage1_outputs WHERE thread_id = ?').run(id);
      memory.prepare("DELETE FROM jobs WHERE kind = 'memory_stage1' AND job_key = ?").run(id);
      memory
        .prepare(
          `INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token, started_at, finished_at, lease_until, retry_at,
             retry_remaining, last_error, input_watermark, last_success_watermark)
           VALUES ('memory_stage1', ?, 'error', 'w', 't', ?, ?, NULL, ?, ?, 'stage-1 output was not valid JSON', ?, NULL)`,
        )
        .run(id, updated + 10, updated + 20, retry.retryAt, retry.remaining, updated);
    } finally {
      memory.close();
    }
  } finally {
    state.close();
  }
  return id;
}

async function propose(w: World, plan: RepairPlan) {
  const studio = openStudioDb(w.dataDir);
  try {
    return await createProposal(studio, { title: plan.title, source: 'doctor', files: [], dbChanges: [plan.change] });
  } finally {
    studio.close();
  }
}

describe('coverage repairs', () => {
  it('a backing-off extraction: proposed before → after, applied without a lease, recorded, and reverted', async () => {
    const w = await setUp();
    const id = failedThread(w, { remaining: 2, retryAt: now() + 3600 });
    const plan = await planRetry(w.home, 'v2', id, now());
    expect(plan.change.description).toMatch(/retry_at \d{4}-\d\d-\d\d \d\d:\d\d UTC → none/);
    expect(plan.change.description).toMatch(/retry_remaining 2 → 3/);
    expect(plan.change.description).toContain('stage-1 output was not valid JSON');
    const before = job(w.memoryDb, 'memory_stage1', id);
    const proposal = await w.service.call('coverage.retry', { threadId: id });
    expect(proposal).toMatchObject({
      source: 'doctor',
      files: [],
      dbChanges: [{ db: 'memories_v2', description: plan.change.description }],
    });
    // Asked again while it is pending: the same proposal, not a second one that would conflict once the first is applied.
    expect((await w.service.call('coverage.retry', { threadId: id })).id).toBe(proposal.id);
    const applied = await w.service.call('review.apply', { id: proposal.id });
    expect(applied.lease, 'a repair takes no lease').toEqual([]);
    expect(job(w.memoryDb, 'memory_stage1', id)).toEqual({ ...before, retry_at: null, retry_remaining: 3 });

    const revert = await w.service.call('history.revert', { entryId: applied.entry.id });
    expect(revert.dbChanges).toHaveLength(1);
    expect(revert.dbChanges[0]?.description).toMatch(/back as it was before the repair: retry_at none → .+, retry_remaining 3 → 2/);
    await w.service.call('review.apply', { id: revert.id });
    expect(job(w.memoryDb, 'memory_stage1', id)).toEqual(before);
  });

  it('locks the root like any Apply (no recovery can finish it behind its back), but takes no lease', async () => {
    const w = await setUp();
    const id = failedThread(w, { remaining: 0, retryAt: null });
    const proposal = await w.service.call('coverage.retry', { threadId: id });
    const root = w.home.roots.find((r) => r.version === 'v2')!.path;
    const held = await acquireLockFile(w.dataDir, root, Date.now(), false);
    try {
      await expect(w.service.call('review.apply', { id: proposal.id })).rejects.toMatchObject({ kind: 'Locked' });
      expect(job(w.memoryDb, 'memory_stage1', id)).toMatchObject({ retry_remaining: 0 });
    } finally {
      await releaseLockFile(held);
    }
    const applied = await w.service.call('review.apply', { id: proposal.id });
    expect(applied.lease).toEqual([]);
    expect(job(w.memoryDb, 'memory_stage1', id)).toMatchObject({ retry_remaining: 3 });
  });

  it('an exhausted extraction gets its three retries back; a job Codex changed since the review is a conflict and nothing is written', async () => {
    const w = await setUp();
    const id = failedThread(w, { remaining: 0, retryAt: null });
    // The short form the ledger prints names the session as well as its whole id.
    const plan = await planRetry(w.home, 'v2', `${id.slice(0, 8)}…${id.slice(-4)}`, now());
    expect(plan.change.params).toMatchObject({ jobKey: id });
    expect(plan.change.description).toMatch(/no retries left/);
    const proposal = await propose(w, plan);
    // Codex claims and fails the job once more between the review and Apply.
    write(
      w.memoryDb,
      "UPDATE jobs SET finished_at = finished_at + 5, last_error = 'again' WHERE kind = 'memory_stage1' AND job_key = ?",
      id,
    );
    const changed = job(w.memoryDb, 'memory_stage1', id);
    await expect(w.service.call('review.apply', { id: proposal.id })).rejects.toMatchObject({ kind: 'Conflict' });
    expect(job(w.memoryDb, 'memory_stage1', id)).toEqual(changed);
    expect((await w.service.call('review.get', { id: proposal.id })).status).toBe('pending');
  });

  it('recovery finishing an interrupted repair says so when Codex moved the row on: it never claims nothing was changed', async () => {
    const w = await setUp();
    const id = failedThread(w, { remaining: 0, retryAt: null });
    const plan = await planRetry(w.home, 'v2', id, now());
    const change = { ...plan.change, ord: 0, version: 'v2' as const };
    write(w.memoryDb, "UPDATE jobs SET status = 'running', lease_until = ? WHERE kind = 'memory_stage1' AND job_key = ?", now() + 60, id);
    expect(() => commitDbChangesAt({ memories_v2: w.memoryDb }, [change], { recovering: true })).toThrow(/cannot be told/);
    expect(() => commitDbChangesAt({ memories_v2: w.memoryDb }, [change])).toThrow(/since the proposal was made.+nothing was changed/);
  });

  it('refuses a retry that would change nothing or not help, saying why', async () => {
    const w = await setUp();
    const id = failedThread(w, { remaining: 2, retryAt: now() - 60 });
    await expect(planRetry(w.home, 'v2', id, now())).rejects.toMatchObject({
      kind: 'Invalid',
      message: expect.stringMatching(/not held back/),
    });
    write(
      join(w.manifest.codexHome, 'state_5.sqlite'),
      'UPDATE threads SET updated_at_ms = ? WHERE id = ?',
      (now() - 40 * 86_400) * 1000,
      id,
    );
    await expect(planRetry(w.home, 'v2', id, now())).rejects.toMatchObject({ message: expect.stringMatching(/max_rollout_age_days/) });
    await expect(planRetry(w.home, 'v2', 'no-such-thread', now())).rejects.toMatchObject({ kind: 'NotFound' });
  });

  it("a forget's history entry cannot be reverted, and says why", async () => {
    const w = await setUp();
    const id = failedThread(w, { remaining: 0, retryAt: null });
    const forget = await w.service.call('review.forget', { threadId: id });
    const applied = await w.service.call('review.apply', { id: forget.id });
    await expect(w.service.call('history.revert', { entryId: applied.entry.id })).rejects.toMatchObject({
      kind: 'Invalid',
      message: expect.stringMatching(/cannot be reverted.+cannot be undone \(/),
    });
  });

  it('reclaims a consolidation job left running by a dead worker, and refuses a live lease', async () => {
    const w = await setUp();
    const t = now();
    write(w.memoryDb, "DELETE FROM jobs WHERE kind = 'memory_consolidate_global'");
    write(
      w.memoryDb,
      `INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token, started_at, finished_at, lease_until, retry_at,
         retry_remaining, last_error, input_watermark, last_success_watermark)
       VALUES ('memory_consolidate_global', 'global', 'running', 'codex-dead', 'tok', ?, NULL, ?, NULL, 3, NULL, ?, ?)`,
      t - 7200,
      t + 600,
      t - 7300,
      t - 90_000,
    );
    await expect(planReclaim(w.home, 'v2', t)).rejects.toMatchObject({ kind: 'Locked' });
    write(w.memoryDb, "UPDATE jobs SET lease_until = ? WHERE kind = 'memory_consolidate_global'", t - 3600);
    const plan = await planReclaim(w.home, 'v2', t);
    expect(plan.change.description).toMatch(/status "running" → "pending"/);
    expect(plan.change.description).toMatch(/worker_id codex-dead → none/);
    const proposal = await w.service.call('coverage.reclaim', { version: 'v2' });
    await w.service.call('review.apply', { id: proposal.id });
    expect(job(w.memoryDb, 'memory_consolidate_global', 'global')).toMatchObject({
      status: 'pending',
      worker_id: null,
      ownership_token: null,
      lease_until: null,
      input_watermark: t - 7300,
    });
    await expect(planReclaim(w.home, 'v2', t)).rejects.toMatchObject({ kind: 'Invalid' });
  });
});
