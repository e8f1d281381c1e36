// Which Codex wrote a home, from its migrations against the verified releases: homes built with the schemas captured
// from the real 0.169.x and 0.171.0 binaries (docs/compat/<version>.json), a patch release without a receipt,
// files of two releases, and migration rows no verified release has.
import { readFileSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { readPipelineHealth } from '../../../electron/core/codex-db';
import { createCodexSchema, REFERENCE_SCHEMA, type CodexSchemaCapture } from '../../../electron/core/codex-schema';
import { releaseRangeLabel } from '../../../shared/release-range';
import { cleanupHomes, FIXTURE_NOW, inspect, makeHome, tempDir } from './home-fixture';

afterAll(cleanupHomes);

const repo = join(import.meta.dirname, '..', '..', '..');
/** A verified release's capture of a fresh home, as `npm run compat` recorded it. */
const captureOf = (version: string): CodexSchemaCapture =>
  (JSON.parse(readFileSync(join(repo, 'docs', 'compat', `${version}.json`), 'utf8')) as { capture: CodexSchemaCapture }).capture;

function write(file: string, fn: (db: Database.Database) => void): void {
  const db = new Database(file);
  try {
    fn(db);
  } finally {
    db.close();
  }
}

/** A home whose every Codex DB file is as `capture`'s release leaves it, with one thread recorded by `cliVersion`. */
async function homeOf(capture: CodexSchemaCapture, cliVersion: string): Promise<string> {
  const dir = join(await tempDir('codex-release-'), 'home');
  await mkdir(dir, { recursive: true });
  const at = Math.floor(FIXTURE_NOW.getTime() / 1000) - 86_400;
  for (const name of Object.keys(capture.databases)) {
    const file = join(dir, name);
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    write(file, (db) => createCodexSchema(db, name, at, capture));
  }
  write(join(dir, 'state_5.sqlite'), (db) =>
    db
      .prepare(
        `INSERT INTO threads (id, rollout_path, created_at, updated_at, updated_at_ms, source, model_provider, cwd, title, sandbox_policy,
          approval_mode, cli_version) VALUES ('01a00000-0000-7000-8000-0000000000b1', '/x.jsonl', ?, ?, ?, 'cli', 'openai', '/w', 't',
          'workspace-write', 'on-request', ?)`,
      )
      .run(at, at, at * 1000, cliVersion),
  );
  return dir;
}

const release = async (dir: string) => (await readPipelineHealth(await inspect(dir), { now: FIXTURE_NOW })).codex;

describe('which Codex wrote the home', () => {
  it('a 0.171.0 home: every DB file as the reference leaves it, verified, with its receipt', async () => {
    const t = await makeHome({ version: 'v2' });
    const r = await release(t.dir);
    expect(REFERENCE_SCHEMA.codexVersion).toBe('0.171.0');
    expect(r).toMatchObject({
      status: 'verified',
      writtenBy: ['0.171.0'],
      writtenByLabel: '0.171.0',
      newestSeen: '0.171.0',
      newestSeenVerified: true,
      receipt: 'docs/compat/0.171.0.md',
      warning: null,
      newerThanReference: false,
    });
    expect(r.summary).toBe(
      "Codex 0.171.0 wrote this home (its databases' migrations; codex-cli 0.171.0 ran the newest session): verified (docs/compat/0.171.0.md).",
    );
    // All seven files are read, the three Memory Studio uses first.
    expect(r.migrations.map((m) => m.file)).toEqual([
      'state_5.sqlite',
      'memories_1.sqlite',
      'memories_v2_1.sqlite',
      'goals_1.sqlite',
      'logs_2.sqlite',
      'queue_1.sqlite',
      'thread_history_1.sqlite',
    ]);
    expect(r.migrations.find((m) => m.file === 'state_5.sqlite')).toMatchObject({ db: 'state', applied: 64, latest: 64, unknown: [] });
    expect(r.migrations.find((m) => m.file === 'thread_history_1.sqlite')).toMatchObject({ db: null, applied: 9, matches: ['0.171.0'] });
  });

  it('a 0.169.x home: 0.169.0 and 0.169.1 share one migration set, an older verified release, read in full', async () => {
    const dir = await homeOf(captureOf('0.169.1'), '0.169.1');
    const r = await release(dir);
    expect(r).toMatchObject({
      status: 'verified-older',
      writtenBy: ['0.169.0', '0.169.1'],
      writtenByLabel: '0.169.0–0.169.1',
      newestSeenVerified: true,
      receipt: 'docs/compat/0.169.1.md',
      warning: null,
      newerThanReference: false,
    });
    expect(r.summary).toContain('Codex 0.169.0–0.169.1 wrote this home');
    expect(r.summary).toContain('an older release than the reference 0.171.0, verified too (docs/compat/0.169.1.md)');
    expect(r.migrations.find((m) => m.file === 'state_5.sqlite')).toMatchObject({ applied: 62, knownLatest: 64, unknown: [] });
  });

  it('a patch release without a receipt whose migrations are verified ones: said, with the command that verifies it', async () => {
    const dir = await homeOf(REFERENCE_SCHEMA, '0.171.1');
    const r = await release(dir);
    expect(r).toMatchObject({ status: 'unverified-release', writtenBy: ['0.171.0'], newestSeen: '0.171.1', newestSeenVerified: false });
    expect(r.warning).toContain('Codex 0.171.1 has no receipt');
    expect(r.warning).toContain('`npm run compat -- 0.171.1`');
  });

  it('an extra migration row no verified release has: a plain warning naming the DB, the migration and what to run', async () => {
    const dir = await homeOf(REFERENCE_SCHEMA, '0.172.0');
    write(join(dir, 'state_5.sqlite'), (db) =>
      db
        .prepare(
          "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) VALUES (65, 'thread labels', 1, x'00', 1)",
        )
        .run(),
    );
    const report = await readPipelineHealth(await inspect(dir), { now: FIXTURE_NOW });
    const r = report.codex;
    expect(r).toMatchObject({ status: 'unknown-migrations', writtenBy: [], receipt: null, newerThanReference: true });
    expect(r.migrations.find((m) => m.file === 'state_5.sqlite')?.unknown).toEqual([{ version: 65, description: 'thread labels' }]);
    expect(r.summary).toBe(
      'A Codex newer than every verified release (the newest is 0.171.0) wrote this home; codex-cli 0.172.0 ran the newest session.',
    );
    expect(r.warning).toBe(
      'state_5.sqlite has migration 65 (thread labels), which no verified Codex has. Memory Studio reads only the tables and columns it knows, ' +
        'so whatever those migrations added is not shown (and never changed). To verify Codex 0.172.0, run `npm run compat -- 0.172.0` in a ' +
        'Memory Studio checkout.',
    );
    // What is known is still read.
    expect(report.threads?.total).toBe(1);
    expect(report.problems).toEqual([]);
  });

  it('a changed checksum or a new migration in a file Memory Studio does not read is unknown too', async () => {
    const dir = await homeOf(REFERENCE_SCHEMA, '0.171.0');
    write(join(dir, 'thread_history_1.sqlite'), (db) => db.prepare("UPDATE _sqlx_migrations SET checksum = x'01' WHERE version = 9").run());
    const r = await release(dir);
    expect(r.status).toBe('unknown-migrations');
    expect(r.migrations.find((m) => m.file === 'thread_history_1.sqlite')?.unknown).toEqual([
      { version: 9, description: 'realtime observation indexes' },
    ]);
    expect(r.warning).toMatch(/^thread_history_1\.sqlite has migration 9 \(realtime observation indexes\), which no verified Codex has\./);
    expect(r.warning).toContain('run `npm run compat -- VERSION` in a Memory Studio checkout (VERSION as `codex --version` prints it)');
  });

  it('files of two releases match no single one: each file says which it matches', async () => {
    const dir = await homeOf(REFERENCE_SCHEMA, '0.171.0');
    const old = captureOf('0.169.0');
    const file = join(dir, 'thread_history_1.sqlite');
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
    write(file, (db) => createCodexSchema(db, 'thread_history_1.sqlite', 1, old));
    const r = await release(dir);
    expect(r).toMatchObject({ status: 'unmatched', writtenBy: [], warning: null, newerThanReference: false });
    expect(r.summary).toContain('thread_history_1.sqlite is as Codex 0.169.0–0.169.1 leaves it');
    expect(r.summary).toContain('state_5.sqlite is as Codex 0.171.0 leaves it');
  });
});

describe('releaseRangeLabel', () => {
  const verified = ['0.169.0', '0.169.1', '0.171.0'];
  it('joins neighbours in the verified list into a range and lists a gap', () => {
    expect(releaseRangeLabel(['0.169.1', '0.169.0'], verified)).toBe('0.169.0–0.169.1');
    expect(releaseRangeLabel(['0.169.0', '0.171.0'], verified)).toBe('0.169.0, 0.171.0');
    expect(releaseRangeLabel(verified, verified)).toBe('0.169.0–0.171.0');
    expect(releaseRangeLabel([], verified)).toBe('');
  });
});
