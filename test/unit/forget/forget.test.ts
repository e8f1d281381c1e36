// "Forget this session" end to end on generated homes: the proposal's DB rows, Apply under the lease, refusals, rollback.
import Database from 'better-sqlite3';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FORGET_KINDS } from '../../../electron/core/forget';
import { createProposal } from '../../../electron/core/review';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { openStudioDb } from '../../../electron/core/studio-db';
import { generateHome, type HomeManifest } from '../../fixtures';
import { globalRow, setGlobalRow } from '../apply/helpers';
import { makeTempDir } from '../helpers';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setUp(version: 'v1' | 'both'): Promise<{ manifest: HomeManifest; service: StudioService; dataDir: string }> {
  const temp = await makeTempDir();
  const manifest = await generateHome({ dir: join(temp.dir, 'home'), scale: 'small', version, seed: 5, git: false, now: new Date() });
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
  return { manifest, service, dataDir };
}

function query<T>(path: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

const memoryDb = (m: HomeManifest, v: 'v1' | 'v2') => join(m.codexHome, v === 'v1' ? 'memories_1.sqlite' : 'memories_v2_1.sqlite');
const stateDb = (m: HomeManifest) => join(m.codexHome, 'state_5.sqlite');

/** An enabled thread whose stage-1 row was part of the last consolidation. */
function pickThread(m: HomeManifest): string {
  const enabled = new Set(query<{ id: string }>(stateDb(m), "SELECT id FROM threads WHERE memory_mode = 'enabled'").map((r) => r.id));
  const rows = query<{ thread_id: string }>(
    memoryDb(m, 'v1'),
    'SELECT thread_id FROM stage1_outputs WHERE selected_for_phase2 != 0 ORDER BY thread_id',
  );
  const id = rows.map((r) => r.thread_id).find((t) => enabled.has(t));
  if (!id) throw new Error('no enabled, selected thread in the generated home');
  return id;
}

const stage1Count = (m: HomeManifest, v: 'v1' | 'v2', id: string) =>
  query<{ n: number }>(
    memoryDb(m, v),
    'SELECT (SELECT COUNT(*) FROM stage1_outputs WHERE thread_id = ?) + (SELECT COUNT(*) FROM jobs WHERE kind = ? AND job_key = ?) AS n',
    id,
    'memory_stage1',
    id,
  )[0]?.n;
const modeOf = (m: HomeManifest, id: string) =>
  query<{ memory_mode: string }>(stateDb(m), 'SELECT memory_mode FROM threads WHERE id = ?', id)[0]?.memory_mode;

describe('review.forget', () => {
  it('proposes readable DB rows and applies them under the lease: rows gone, mode disabled, consolidation pending, history recorded', async () => {
    const { manifest, service } = await setUp('v1');
    const id = pickThread(manifest);
    const proposal = await service.call('review.forget', { threadId: id });
    expect(proposal.source).toBe('forget');
    expect(proposal.title).toMatch(/^Forget session [0-9a-f]{8}…[0-9a-f]{4} \(\/.+\)$/);
    expect(proposal.files).toEqual([]);
    expect(proposal.dbChanges.map((c) => [c.db, c.sqlKind])).toEqual([
      ['memories_v1', FORGET_KINDS.deleteStage1],
      ['memories_v1', FORGET_KINDS.deleteStage1Job],
      ['memories_v1', FORGET_KINDS.enqueueConsolidation],
      ['state', FORGET_KINDS.disableThread],
    ]);
    for (const c of proposal.dbChanges) expect(c.description).toMatch(/^[A-Z].+\.$/);
    expect(stage1Count(manifest, 'v1', id)).toBe(2); // Nothing happens before Apply.

    const applied = await service.call('review.apply', { id: proposal.id });
    expect(applied.lease).toEqual([{ version: 'v1', previous: 'pending' }]);
    expect(applied.written).toEqual([]);
    expect(stage1Count(manifest, 'v1', id)).toBe(0);
    expect(modeOf(manifest, id)).toBe('disabled');
    expect(globalRow(memoryDb(manifest, 'v1'))?.status).toBe('pending');
    expect(String(globalRow(memoryDb(manifest, 'v1'))?.worker_id)).not.toMatch(/^memory-studio:/);
    const history = await service.call('history.list', {});
    expect(history[0]).toMatchObject({ id: applied.entry.id, kind: 'apply', proposalId: proposal.id, summary: proposal.title });
    expect((await service.call('review.get', { id: proposal.id })).status).toBe('applied');
  });

  it('forgets in every version that has the row (v1 and v2)', async () => {
    const { manifest, service } = await setUp('both');
    const id = pickThread(manifest);
    expect(stage1Count(manifest, 'v2', id)).toBeGreaterThan(0);
    const proposal = await service.call('review.forget', { threadId: id });
    expect(new Set(proposal.dbChanges.map((c) => c.db))).toEqual(new Set(['memories_v1', 'memories_v2', 'state']));
    // Each change names the root whose memory DB it touches; the state DB belongs to none.
    expect(new Set(proposal.dbChanges.map((c) => `${c.db}:${c.version}`))).toEqual(
      new Set(['memories_v1:v1', 'memories_v2:v2', 'state:null']),
    );
    const applied = await service.call('review.apply', { id: proposal.id });
    expect(applied.lease).toEqual([
      { version: 'v1', previous: 'pending' },
      { version: 'v2', previous: 'pending' },
    ]);
    expect(stage1Count(manifest, 'v1', id)).toBe(0);
    expect(stage1Count(manifest, 'v2', id)).toBe(0);
    expect(globalRow(memoryDb(manifest, 'v2'))?.status).toBe('pending');
    expect(modeOf(manifest, id)).toBe('disabled');
  });

  it('refuses an unknown thread id with NotFound', async () => {
    const { service } = await setUp('v1');
    const result = await service.dispatch('review.forget', { threadId: '00000000-0000-7000-8000-000000000000' });
    expect(result).toMatchObject({ ok: false, error: { kind: 'NotFound' } });
    if (!result.ok) expect(result.error.message).toContain('00000000-0000-7000-8000-000000000000');
  });

  it('is refused with Locked while Codex holds the lease, and changes no DB', async () => {
    const { manifest, service } = await setUp('v1');
    const id = pickThread(manifest);
    const proposal = await service.call('review.forget', { threadId: id });
    const now = Math.floor(Date.now() / 1000);
    setGlobalRow(memoryDb(manifest, 'v1'), {
      status: 'running',
      worker_id: 'codex-thread',
      ownership_token: 'codex-token',
      lease_until: now + 3600,
    });
    const result = await service.dispatch('review.apply', { id: proposal.id });
    expect(result).toMatchObject({ ok: false, error: { kind: 'Locked' } });
    expect(stage1Count(manifest, 'v1', id)).toBe(2);
    expect(modeOf(manifest, id)).toBe('enabled');
    expect(globalRow(memoryDb(manifest, 'v1'))).toMatchObject({ status: 'running', ownership_token: 'codex-token' });
    expect((await service.call('review.get', { id: proposal.id })).status).toBe('pending');
  });

  it('a failing DB step leaves nothing changed: files put back, every DB rolled back, proposal still appliable', async () => {
    const { manifest, service, dataDir } = await setUp('v1');
    const id = pickThread(manifest);
    const root = join(manifest.codexHome, 'memories');
    const summary = await readFile(join(root, 'memory_summary.md'), 'utf8');
    const forget = await service.call('review.forget', { threadId: id });
    const studio = openStudioDb(dataDir);
    const combined = await createProposal(studio, {
      title: 'Forget and edit',
      source: 'forget',
      files: [{ version: 'v1', root, relPath: 'memory_summary.md', proposedContent: `${summary}- forgotten session removed\n` }],
      dbChanges: forget.dbChanges.map(({ db, description, sqlKind, params }) => ({ db, description, sqlKind, params })),
    });
    studio.close();
    await service.call('review.decide', {
      id: combined.id,
      files: combined.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    });
    const before = globalRow(memoryDb(manifest, 'v1'));
    // The state DB step fails after the memory DB's statements ran: everything must be rolled back.
    const state = new Database(stateDb(manifest));
    state.exec('ALTER TABLE threads RENAME TO threads_moved');
    const failed = await service.dispatch('review.apply', { id: combined.id });
    expect(failed.ok).toBe(false);
    expect(await readFile(join(root, 'memory_summary.md'), 'utf8')).toBe(summary);
    expect(stage1Count(manifest, 'v1', id)).toBe(2);
    expect(globalRow(memoryDb(manifest, 'v1'))).toEqual(before);
    state.exec('ALTER TABLE threads_moved RENAME TO threads');
    state.close();
    await service.call('review.apply', { id: combined.id });
    expect(await readFile(join(root, 'memory_summary.md'), 'utf8')).toBe(`${summary}- forgotten session removed\n`);
    expect(stage1Count(manifest, 'v1', id)).toBe(0);
    expect(modeOf(manifest, id)).toBe('disabled');
  });
});
