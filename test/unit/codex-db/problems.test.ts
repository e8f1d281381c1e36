// DB problems become data: missing, locked, corrupt, schema gaps, older schemas and WAL files, never a throw or a new file.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openCodexDb, readPipelineHealth } from '../../../electron/core/codex-db';
import { MEMORY_MIGRATION_SQL } from '../../../electron/core/demo-home/databases';
import { HealthReportSchema, type HealthReport } from '../../../shared/health';
import { cleanupHomes, FIXTURE_NOW, inspect, makeHome, tempDir } from './home-fixture';

afterAll(cleanupHomes);

const FAST = { now: FIXTURE_NOW, busyTimeoutMs: 50 };

function problem(report: HealthReport, db: string) {
  return report.problems.find((p) => p.db === db);
}

async function health(dir: string): Promise<HealthReport> {
  const report = await readPipelineHealth(await inspect(dir), FAST);
  expect(() => HealthReportSchema.parse(report)).not.toThrow();
  return report;
}

describe('missing databases', () => {
  it('reports missing state and active memory DBs without creating any file', async () => {
    const dir = await tempDir();
    const report = await health(dir);
    expect(problem(report, 'state')).toMatchObject({ kind: 'missing', path: join(dir, 'state_5.sqlite') });
    // With no memories.version Codex 0.169.0 runs v2: its DB is the one that should exist; v1's is created lazily.
    expect(problem(report, 'memories_v2')).toMatchObject({ kind: 'missing' });
    expect(problem(report, 'memories_v1')).toBeUndefined();
    expect(report.threads).toBeNull();
    expect(report.versions.every((v) => v.stage1Jobs === null && v.db.exists === false)).toBe(true);
    expect(await readdir(dir)).toEqual([]);
  });

  it('reads v1 tables from state_5.sqlite on older builds that kept them there', async () => {
    const t = await makeHome({ version: 'v1' });
    const state = new Database(join(t.dir, 'state_5.sqlite'));
    state.exec(MEMORY_MIGRATION_SQL);
    state.exec(
      `ATTACH '${join(t.dir, 'memories_1.sqlite')}' AS m; INSERT INTO jobs SELECT * FROM m.jobs; INSERT INTO stage1_outputs SELECT * FROM m.stage1_outputs; DETACH m;`,
    );
    state.close();
    await rm(join(t.dir, 'memories_1.sqlite'));
    const report = await health(t.dir);
    const v1 = report.versions.find((v) => v.version === 'v1');
    expect(report.problems).toEqual([]);
    expect(v1?.tablesIn).toBe('state-db');
    expect(v1?.stage1Jobs?.byStatus.error).toBe(t.manifest.db.failedJobs);
    expect(v1?.globalJob?.status).toBe('done');
  });
});

describe('locked databases', () => {
  it('reports a DB held by another connection in BEGIN EXCLUSIVE as locked and still reads the others', async () => {
    const t = await makeHome();
    const holder = new Database(join(t.dir, 'memories_1.sqlite'));
    try {
      // Codex keeps its DBs in WAL mode, where a reader never waits for a writer; a DB in rollback-journal mode
      // (older builds, a copied file) can be locked, and that must be reported, not thrown.
      holder.pragma('journal_mode = DELETE');
      holder.exec('BEGIN EXCLUSIVE');
      holder.exec("UPDATE jobs SET status = 'running' WHERE kind = 'memory_consolidate_global'");
      const report = await health(t.dir);
      expect(problem(report, 'memories_v1')).toMatchObject({ kind: 'locked', path: join(t.dir, 'memories_1.sqlite') });
      expect(problem(report, 'memories_v1')?.message).toMatch(/locked/);
      expect(problem(report, 'memories_v1')?.hint).toMatch(/Codex is probably writing/);
      const v2 = report.versions.find((v) => v.version === 'v2');
      expect(v2?.stage1Jobs?.byStatus.error).toBe(t.manifest.db.failedJobs);
      expect(report.threads?.total).toBe(t.manifest.threads);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect((await health(t.dir)).problems).toEqual([]);
  });
});

describe('damaged databases', () => {
  it('reports random bytes, a truncated header and damaged pages as corrupt', async () => {
    const t = await makeHome();
    await writeFile(join(t.dir, 'memories_v2_1.sqlite'), randomBytes(8192));
    const state = await readFile(join(t.dir, 'state_5.sqlite'));
    await writeFile(join(t.dir, 'state_5.sqlite'), state.subarray(0, 60));
    const report = await health(t.dir);
    expect(problem(report, 'memories_v2')).toMatchObject({ kind: 'corrupt' });
    expect(problem(report, 'memories_v2')?.message).toMatch(/not a SQLite database/);
    expect(problem(report, 'state')).toMatchObject({ kind: 'corrupt' });
    expect(problem(report, 'state')?.message).toMatch(/truncated/);
    // Without the catalog, v1 is still read; thread checks are skipped rather than guessed.
    const v1 = report.versions.find((v) => v.version === 'v1');
    expect(v1?.stage1Jobs?.byStatus.error).toBe(t.manifest.db.failedJobs);
    expect(report.threads).toBeNull();

    // A valid header over garbage pages: SQLite itself reports the damage.
    const mem = Buffer.from(await readFile(join(t.dir, 'memories_1.sqlite')));
    randomBytes(mem.length - 4096).copy(mem, 4096);
    await writeFile(join(t.dir, 'memories_1.sqlite'), mem);
    expect(problem(await health(t.dir), 'memories_v1')).toMatchObject({ kind: 'corrupt' });
  });

  it('reports an SQLite header cut after 100 bytes as corrupt when SQLite reads it', async () => {
    const t = await makeHome();
    await truncate(join(t.dir, 'memories_1.sqlite'), 1000);
    expect(problem(await health(t.dir), 'memories_v1')?.kind).toBe('corrupt');
  });

  it('reports a folder where a DB should be as unreadable', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'state_5.sqlite'));
    expect(problem(await health(dir), 'state')).toMatchObject({ kind: 'unreadable' });
  });
});

describe('unexpected schemas', () => {
  it('reports a memory DB without Codex tables, and one with only stage1_outputs', async () => {
    const t = await makeHome();
    await rm(join(t.dir, 'memories_1.sqlite'));
    const empty = new Database(join(t.dir, 'memories_1.sqlite'));
    empty.exec('CREATE TABLE unrelated (x)');
    empty.close();
    const v2 = new Database(join(t.dir, 'memories_v2_1.sqlite'));
    v2.exec('DROP TABLE jobs');
    v2.close();
    const report = await health(t.dir);
    expect(problem(report, 'memories_v1')).toMatchObject({ kind: 'schema' });
    expect(problem(report, 'memories_v2')).toMatchObject({ kind: 'schema' });
    expect(problem(report, 'memories_v2')?.message).toMatch(/no jobs table/);
    const version2 = report.versions.find((v) => v.version === 'v2');
    expect(version2?.stage1Jobs).toBeNull();
    expect(version2?.outputs?.total).toBe(t.manifest.db.stage1Rows);
  });

  it('reads an older schema whose columns are missing, reporting which', async () => {
    const dir = await tempDir();
    const db = new Database(join(dir, 'memories_1.sqlite'));
    db.exec(`CREATE TABLE stage1_outputs (thread_id TEXT PRIMARY KEY, source_updated_at INTEGER NOT NULL, raw_memory TEXT NOT NULL,
      rollout_summary TEXT NOT NULL, generated_at INTEGER NOT NULL);
      CREATE TABLE jobs (kind TEXT NOT NULL, job_key TEXT NOT NULL, status TEXT NOT NULL, worker_id TEXT, ownership_token TEXT,
      started_at INTEGER, finished_at INTEGER, lease_until INTEGER, retry_at INTEGER, retry_remaining INTEGER NOT NULL, last_error TEXT,
      PRIMARY KEY (kind, job_key));`);
    const now = FIXTURE_NOW.getTime() / 1000;
    db.prepare('INSERT INTO stage1_outputs VALUES (?, ?, ?, ?, ?)').run(
      '019a0000-0000-7000-8000-000000000001',
      now - 3600,
      'raw',
      ' ',
      now - 60,
    );
    db.prepare(
      "INSERT INTO jobs VALUES ('memory_stage1', '019a0000-0000-7000-8000-000000000001', 'error', 'w', 't', ?, ?, NULL, ?, 1, 'boom')",
    ).run(now - 100, now - 90, now + 3500);
    db.prepare("INSERT INTO jobs VALUES ('memory_consolidate_global', 'global', 'running', 'w', 't', ?, NULL, ?, NULL, 3, NULL)").run(
      now - 100,
      now + 3500,
    );
    db.close();
    const report = await health(dir);
    const v1 = report.versions.find((v) => v.version === 'v1');
    expect(v1?.missingColumns).toEqual(
      expect.arrayContaining(['input_watermark', 'last_success_watermark', 'usage_count', 'last_usage', 'selected_for_phase2']),
    );
    expect(v1?.stage1Jobs?.issues[0]).toMatchObject({ lastError: 'boom', retryState: 'backoff', inputWatermark: null });
    expect(v1?.globalJob).toMatchObject({ status: 'running', leaseLive: true, lastSuccessWatermark: null });
    expect(v1?.globalClaim).toMatchObject({ claimableNow: false, outcome: 'skipped_running' });
    expect(v1?.outputs).toMatchObject({ total: 1, neverUsed: 1, blankRolloutSummary: 1, blankRawMemory: 0 });
    expect(problem(report, 'memories_v1')).toBeUndefined();
  });
});

describe('WAL-mode databases', () => {
  it('reads a WAL database at rest from a snapshot, creating no -wal or -shm file', async () => {
    const t = await makeHome();
    for (const name of ['memories_1.sqlite', 'state_5.sqlite']) {
      const db = new Database(join(t.dir, name));
      db.pragma('journal_mode = WAL');
      db.close();
    }
    const before = (await readdir(t.dir)).sort();
    const report = await health(t.dir);
    expect(report.problems).toEqual([]);
    expect(report.stateDb).toMatchObject({ mode: 'snapshot', journalMode: 'wal' });
    expect(report.versions.find((v) => v.version === 'v1')?.db).toMatchObject({ mode: 'snapshot', journalMode: 'wal' });
    expect(report.versions.find((v) => v.version === 'v1')?.stage1Jobs?.byStatus.error).toBe(t.manifest.db.failedJobs);
    expect((await readdir(t.dir)).sort()).toEqual(before);
  });

  it('reads a WAL database directly while a writer has it open, seeing committed rows', async () => {
    const t = await makeHome();
    const writer = new Database(join(t.dir, 'memories_1.sqlite'));
    try {
      writer.pragma('journal_mode = WAL');
      writer.exec("UPDATE jobs SET last_error = 'fresh failure' WHERE kind = 'memory_consolidate_global'");
      const report = await health(t.dir);
      const v1 = report.versions.find((v) => v.version === 'v1');
      expect(v1?.db.mode).toBe('direct');
      expect(v1?.globalJob?.lastError).toBe('fresh failure');
      expect(v1?.globalJob?.cooldownActive).toBe(false);
    } finally {
      writer.close();
    }
  });

  it('openCodexDb never creates a missing file', async () => {
    const dir = await tempDir();
    const result = await openCodexDb('memories_v1', join(dir, 'memories_1.sqlite'));
    expect(result.ok).toBe(false);
    expect(await readdir(dir)).toEqual([]);
  });
});
