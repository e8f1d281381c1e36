// Phase-1 claims by Codex's rules (interactive sources only, skips) and which Codex release wrote a home.
import { copyFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPipelineHealth } from '../../../electron/core/codex-db';
import { REFERENCE_SCHEMA } from '../../../electron/core/codex-schema';
import type { VersionHealth } from '../../../shared/health';
import { cleanupHomes, FIXTURE_NOW, makeHome, type TestHome } from './home-fixture';

let t: TestHome;
const NOW = Math.floor(FIXTURE_NOW.getTime() / 1000);

beforeAll(async () => {
  t = await makeHome({ version: 'v1' });
});
afterAll(cleanupHomes);

function write(file: string, fn: (db: Database.Database) => void): void {
  const db = new Database(file);
  try {
    fn(db);
  } finally {
    db.close();
  }
}

const v1 = (versions: VersionHealth[]) => versions.find((v) => v.version === 'v1') as VersionHealth;

describe('phase 1 at the next session start', () => {
  it('counts only interactive threads Codex would claim: not exec, not extracted, not backing off, not out of retries', async () => {
    const state = join(t.dir, 'state_5.sqlite');
    const mem = join(t.dir, 'memories_1.sqlite');
    const idle = NOW - 3 * 86_400;
    const ids = [
      '01a00000-0000-7000-8000-0000000000a1',
      '01a00000-0000-7000-8000-0000000000a2',
      '01a00000-0000-7000-8000-0000000000a3',
      '01a00000-0000-7000-8000-0000000000a4',
      '01a00000-0000-7000-8000-0000000000a5',
    ];
    write(state, (db) => {
      const insert =
        db.prepare(`INSERT INTO threads (id, rollout_path, created_at, updated_at, updated_at_ms, source, model_provider, cwd, title, sandbox_policy, approval_mode)
        VALUES (?, '/x.jsonl', ?, ?, ?, ?, 'openai', '/w', 't', 'workspace-write', 'on-request')`);
      const sources = ['cli', 'vscode', 'exec', 'cli', 'cli'];
      ids.forEach((id, i) => insert.run(id, idle, idle - i, (idle - i) * 1000, sources[i]));
    });
    write(mem, (db) => {
      // a4 is already extracted as of its last update; a5 failed and waits an hour before retrying.
      db.prepare(
        "INSERT INTO stage1_outputs (thread_id, source_updated_at, raw_memory, rollout_summary, generated_at) VALUES (?, ?, 'x', 'y', ?)",
      ).run(ids[3], idle - 3, NOW);
      db.prepare(
        "INSERT INTO jobs (kind, job_key, status, retry_at, retry_remaining, last_error, input_watermark) VALUES ('memory_stage1', ?, 'error', ?, 2, 'boom', ?)",
      ).run(ids[4], NOW + 3600, idle - 4);
    });
    const report = await readPipelineHealth(await t.reload(), { now: FIXTURE_NOW });
    const phase1 = v1(report.versions).phase1;
    expect(phase1?.threadIds.filter((id) => ids.includes(id))).toEqual([ids[0], ids[1]]);
    expect(phase1?.threadIds).not.toContain(ids[2]);
    expect(phase1?.skipped.upToDate).toBeGreaterThanOrEqual(1);
    expect(phase1?.skipped.retryBackoff).toBeGreaterThanOrEqual(1);
    expect(phase1?.nextStartClaims).toBe(Math.min(phase1?.eligible ?? 0, report.config.memories.maxRolloutsPerStartup));
    expect(report.threads?.notInteractive).toBeGreaterThanOrEqual(1);
  });

  it('agrees with Codex where a session changed since its failure (claimed) or its job succeeded with nothing kept (skipped)', async () => {
    const state = join(t.dir, 'state_5.sqlite');
    const mem = join(t.dir, 'memories_1.sqlite');
    const idle = NOW - 2 * 86_400;
    const [changed, empty] = ['01a00000-0000-7000-8000-0000000000b1', '01a00000-0000-7000-8000-0000000000b2'];
    write(state, (db) => {
      const insert =
        db.prepare(`INSERT INTO threads (id, rollout_path, created_at, updated_at, updated_at_ms, source, model_provider, cwd, title, sandbox_policy, approval_mode)
        VALUES (?, '/x.jsonl', ?, ?, ?, 'cli', 'openai', '/w', 't', 'workspace-write', 'on-request')`);
      for (const id of [changed, empty]) insert.run(id, idle, idle, idle * 1000);
    });
    write(mem, (db) => {
      // Out of retries, but the session changed after the failed input: the claim resets its retries.
      db.prepare(
        "INSERT INTO jobs (kind, job_key, status, retry_at, retry_remaining, last_error, input_watermark) VALUES ('memory_stage1', ?, 'error', NULL, 0, 'boom', ?)",
      ).run(changed, idle - 600);
      // Done with no output kept: up to date by its last success.
      db.prepare(
        "INSERT INTO jobs (kind, job_key, status, retry_remaining, input_watermark, last_success_watermark) VALUES ('memory_stage1', ?, 'done', 3, ?, ?)",
      ).run(empty, idle, idle);
    });
    const phase1 = v1((await readPipelineHealth(await t.reload(), { now: FIXTURE_NOW })).versions).phase1;
    expect(phase1?.threadIds).toContain(changed);
    expect(phase1?.threadIds).not.toContain(empty);
  });
});

describe('which Codex wrote the home', () => {
  it('a generated home carries exactly the reference release’s migrations', async () => {
    const report = await readPipelineHealth(t.home, { now: FIXTURE_NOW });
    expect(report.codex.reference).toBe(REFERENCE_SCHEMA.codexVersion);
    expect(report.codex.newestSeen).toBe(REFERENCE_SCHEMA.codexVersion);
    expect(report.codex.newerThanReference).toBe(false);
    expect(report.codex.writtenBy).toEqual([REFERENCE_SCHEMA.codexVersion]);
    const state = report.codex.migrations.find((m) => m.db === 'state');
    expect(state?.applied).toBe(REFERENCE_SCHEMA.databases['state_5.sqlite']?.migrations.length);
    expect(state?.unknown).toEqual([]);
  });

  it('a migration no verified release has, a newer cli_version and a stray DB file are reported, and the rest is still read', async () => {
    const home = await makeHome({ version: 'v1', seed: 9 });
    write(join(home.dir, 'state_5.sqlite'), (db) => {
      db.prepare(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) VALUES (65, 'from the future', 1, x'00', 1)",
      ).run();
      db.prepare("UPDATE threads SET cli_version = '0.172.2' WHERE rowid = 1").run();
    });
    await copyFile(join(home.dir, 'state_5.sqlite'), join(home.dir, 'state_6.sqlite'));
    await writeFile(join(home.dir, 'notes.sqlite'), '');
    const report = await readPipelineHealth(await home.reload(), { now: FIXTURE_NOW });
    expect(report.codex.newerThanReference).toBe(true);
    expect(report.codex.status).toBe('unknown-migrations');
    expect(report.codex.newestSeen).toBe('0.172.2');
    expect(report.codex.migrations.find((m) => m.db === 'state')?.unknown).toEqual([{ version: 65, description: 'from the future' }]);
    expect(report.codex.otherDbFiles.map((f) => f.name)).toEqual(['notes.sqlite', 'state_6.sqlite']);
    expect(report.codex.otherDbFiles.find((f) => f.name === 'state_6.sqlite')?.note).toMatch(/another Codex release's state database/);
    expect(report.threads?.total).toBe(home.manifest.threads);
    expect(report.problems).toEqual([]);
  });
});
