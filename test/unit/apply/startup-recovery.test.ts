// Crash recovery at start-up: after a SIGKILL during Apply, the next Memory Studio process of any kind (here a CLI
// command that applies nothing) hands Codex's lease back and removes the temp files; re-applying an applied proposal
// cleans up too; a holder of another PID namespace keeps its lease until it expires. Real child processes.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, lockPathFor, recoverLeftovers } from '../../../electron/core/apply';
import { claimLease, releaseLease } from '../../../electron/core/lease/codex-lease';
import { namespaceId } from '../../../electron/core/platform/host-identity';
import { leaseRecordDir } from '../../../electron/core/lease/lease-row';
import { createStudioService } from '../../../electron/core/service/service';
import { makeTempDir } from '../helpers';
import { seededRandom, startChild } from './child-runner';
import { type TestHome, REPO, ensureCompiled, globalRow, leftoverTemps, makeHome, planFor, setGlobalRow } from './helpers';

const KILLS = 30;
const BIN = join(REPO, 'electron', 'host', 'bin.cjs');
let home: TestHome;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ensureCompiled();
  const temp = await makeTempDir();
  cleanup = temp.cleanup;
  home = await makeHome(temp.dir, 31);
}, 300_000);
afterAll(async () => cleanup());

/** A pid that existed and is gone (a child that already exited). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  return child.pid as number;
}

/** The row as a fresh process sees it: read-write, since SQLite recovers the killed writer's WAL on open. */
function rowAfterKill(dbPath: string): Record<string, unknown> | undefined {
  const db = new Database(dbPath);
  try {
    return db.prepare("SELECT * FROM jobs WHERE kind = 'memory_consolidate_global' AND job_key = 'global'").get() as
      Record<string, unknown> | undefined;
  } finally {
    db.close();
  }
}

const studioHolder = (row: Record<string, unknown> | undefined) =>
  row?.status === 'running' && String(row?.worker_id ?? '').startsWith('memory-studio:');
const files = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

describe('a Memory Studio process starting after a killed Apply', () => {
  it(`puts Codex's lease back and removes temp files, whatever the next command is (${KILLS} SIGKILLs)`, async () => {
    const random = seededRandom(97);
    const proposed = { 'memory_summary.md': 'v1\n## User preferences\n- recovered at start\n', 'rollout_summaries/startup-a.md': '# a\n' };
    const seen = { killed: 0, leftRunning: 0, leftTemps: 0, leftJournal: 0, finished: 0 };
    const planFile = join(home.dataDir, 'plan.json');
    for (let i = 0; seen.killed < KILLS && i < KILLS * 3; i++) {
      await writeFile(join(home.root, 'memory_summary.md'), `v1\n## User preferences\n- base ${i}\n`);
      await writeFile(planFile, JSON.stringify(await planFor(home, `startup-${i}`, proposed)));
      const { child, ready, done } = startChild(planFile, home.dataDir);
      await ready;
      await new Promise((r) => setTimeout(r, Math.floor(random() * 60)));
      child.kill('SIGKILL');
      const result = await done;
      if (!result.killed) {
        seen.finished++;
        continue;
      }
      seen.killed++;
      if (studioHolder(rowAfterKill(home.dbPath))) seen.leftRunning++;
      if (leftoverTemps(home.root).length > 0) seen.leftTemps++;
      if (files(join(home.dataDir, 'journal')).length > 0) seen.leftJournal++;
      // A command that only reads: its process start is what must clean up.
      const cli = spawnSync(process.execPath, [BIN, 'secrets', '--codex-home', home.codexHome, '--data-dir', home.dataDir, '--json'], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(cli.status === 0 || cli.status === 1, cli.stderr).toBe(true);
      const row = globalRow(home.dbPath);
      expect(studioHolder(row), JSON.stringify(row)).toBe(false);
      expect(leftoverTemps(home.root)).toEqual([]);
      expect(files(join(home.dataDir, 'journal'))).toEqual([]);
      const records = files(leaseRecordDir(home.dataDir));
      expect(
        records,
        `${cli.stderr}\n${await Promise.all(records.map((r) => readFile(join(leaseRecordDir(home.dataDir), r), 'utf8')))}`,
      ).toEqual([]);
    }
    console.log(`[startup-recovery] ${JSON.stringify(seen)}`);
    expect(seen.killed).toBe(KILLS);
    // The kills really left something behind for the start-up to clean (else this test proves nothing).
    expect(seen.leftRunning + seen.leftTemps + seen.leftJournal).toBeGreaterThan(0);
  }, 240_000);

  it('re-applying an applied proposal cleans up what a killed process left, then says it is applied', async () => {
    const service = createStudioService({
      home: { codexHome: home.codexHome, source: 'flag' },
      dataDir: home.dataDir,
      host: 'serve',
      appVersion: 'test',
      watch: false,
      log: () => undefined,
    });
    try {
      const proposal = await service.call('review.propose', {
        version: 'v1',
        path: 'memory_summary.md',
        content: 'v1\n## User preferences\n- applied once\n',
      });
      await service.call('review.decide', {
        id: proposal.id,
        files: proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
      });
      await service.call('review.apply', { id: proposal.id });
      // What a process killed right after recording its history would leave: a temp file and Codex's lease.
      const pid = deadPid();
      const temp = join(home.root, `.memory_summary.md.memory-studio-${pid}-n${namespaceId()}-0123456789ab.tmp`);
      await writeFile(temp, 'half written');
      const row = globalRow(home.dbPath) as Record<string, unknown>;
      const columns = [
        'status',
        'worker_id',
        'ownership_token',
        'started_at',
        'finished_at',
        'lease_until',
        'retry_at',
        'retry_remaining',
        'last_error',
        'input_watermark',
      ];
      const before = Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));
      const token = 'dead-apply-token';
      await mkdir(leaseRecordDir(home.dataDir), { recursive: true });
      await writeFile(
        join(leaseRecordDir(home.dataDir), `dead-${token}.json`),
        JSON.stringify({
          dbPath: home.dbPath,
          token,
          workerId: `memory-studio:${pid}@${namespaceId()}`,
          pid,
          hostname: 'h',
          namespace: namespaceId(),
          previous: { ...before, status: 'done' },
        }),
      );
      setGlobalRow(home.dbPath, {
        status: 'running',
        worker_id: `memory-studio:${pid}@${namespaceId()}`,
        ownership_token: token,
        lease_until: Math.floor(Date.now() / 1000) + 100,
      });
      await expect(service.call('review.apply', { id: proposal.id })).rejects.toMatchObject({
        kind: 'Conflict',
        message: expect.stringContaining('cannot be applied again'),
      });
      expect(existsSync(temp)).toBe(false);
      // Handed back as the record says it was, left `pending` (the dead process may have changed files).
      const after = globalRow(home.dbPath) as Record<string, unknown>;
      expect(after).toMatchObject({ status: 'pending', worker_id: before.worker_id, ownership_token: before.ownership_token });
      expect(after.ownership_token).not.toBe(token);
      expect(files(leaseRecordDir(home.dataDir))).toEqual([]);
    } finally {
      service.dispose();
    }
  });
});

describe('a holder of another machine, boot or PID namespace', () => {
  it('is not taken over while its lease runs, whether it names its namespace or not; after expiry it is', async () => {
    const pid = deadPid();
    const now = Math.floor(Date.now() / 1000);
    for (const worker of [`memory-studio:${pid}@ffffffffffff`, `memory-studio:${pid}`]) {
      setGlobalRow(home.dbPath, { status: 'running', worker_id: worker, ownership_token: 'foreign', lease_until: now + 100 });
      await expect(claimLease(home.dataDir, home.dbPath, 'v1', now)).rejects.toMatchObject({ kind: 'Locked' });
      expect(globalRow(home.dbPath)).toMatchObject({ status: 'running', worker_id: worker, ownership_token: 'foreign' });
    }
    // The same dead pid in our own namespace is taken over at once.
    setGlobalRow(home.dbPath, { worker_id: `memory-studio:${pid}@${namespaceId()}` });
    const taken = await claimLease(home.dataDir, home.dbPath, 'v1', now);
    expect(globalRow(home.dbPath)).toMatchObject({ status: 'running', worker_id: `memory-studio:${process.pid}@${namespaceId()}` });
    await releaseLease(taken, false);
    // A foreign lease that has expired is free, as Codex's own expired leases are.
    setGlobalRow(home.dbPath, {
      status: 'running',
      worker_id: `memory-studio:${pid}@ffffffffffff`,
      ownership_token: 'foreign',
      lease_until: now - 1,
    });
    const after = await claimLease(home.dataDir, home.dbPath, 'v1', now);
    await releaseLease(after, false);
    expect(JSON.parse(JSON.stringify(globalRow(home.dbPath)))).toMatchObject({
      worker_id: `memory-studio:${pid}@ffffffffffff`,
      lease_until: now - 1,
    });
    expect(await readFile(join(home.root, 'memory_summary.md'), 'utf8')).toContain('v1');
  });
});

describe('an Apply that takes over a dead holder’s lock', () => {
  it('removes the temp files that lock stood for, which no journal names, and keeps a live writer’s', async () => {
    // A writer killed after writing its temps and before its journal leaves only its temps and its lock; once another
    // Apply takes that lock over, nothing else would say the folder needs a sweep.
    const pid = deadPid();
    await mkdir(join(home.root, 'rollout_summaries'), { recursive: true });
    const dead = join(home.root, 'rollout_summaries', `.taken.md.memory-studio-${pid}-n${namespaceId()}-0123456789ab.tmp`);
    const live = join(home.root, `.MEMORY.md.memory-studio-${process.pid}-n${namespaceId()}-0123456789ab.tmp`);
    await writeFile(dead, 'half written');
    await writeFile(live, 'being written');
    await mkdir(join(home.dataDir, 'locks'), { recursive: true });
    const lock = { pid, hostname: hostname(), namespace: namespaceId(), startedAt: Date.now(), root: home.root, token: 'dead-token' };
    await writeFile(lockPathFor(home.dataDir, home.root), JSON.stringify(lock));
    await applyPlan(await planFor(home, 'takeover', { 'extensions/ad_hoc/notes/takeover.md': 'note\n' }), { dataDir: home.dataDir });
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(lockPathFor(home.dataDir, home.root))).toBe(false);
    expect(await recoverLeftovers(home.dataDir, [home.root])).toBeNull();
    await import('node:fs/promises').then((fs) => fs.unlink(live));
    expect(leftoverTemps(home.root)).toEqual([]);
  });
});

describe('a dead Apply’s lock on a promotion’s project folder', () => {
  it('is taken over at the next start, and the folder swept of its temp files at its top only', async () => {
    // Killed after its journal was deleted (or before it was written): only the lock says the folder was being written.
    const pid = deadPid();
    const project = join(home.codexHome, '..', 'project-locked');
    await mkdir(join(project, 'src'), { recursive: true });
    const top = join(project, `.AGENTS.md.memory-studio-${pid}-n${namespaceId()}-0123456789ab.tmp`);
    const deep = join(project, 'src', `.x.md.memory-studio-${pid}-n${namespaceId()}-0123456789ab.tmp`);
    await writeFile(top, 'half written');
    await writeFile(deep, 'not ours to judge: Apply never writes below a project’s top');
    await mkdir(join(home.dataDir, 'locks'), { recursive: true });
    const lock = {
      pid,
      hostname: hostname(),
      namespace: namespaceId(),
      startedAt: Date.now(),
      root: project,
      token: 'dead',
      project: true,
    };
    await writeFile(lockPathFor(home.dataDir, project), JSON.stringify(lock));
    const report = await recoverLeftovers(home.dataDir, [home.root]);
    expect(report?.removedTempFiles).toEqual([top]);
    expect(existsSync(lockPathFor(home.dataDir, project))).toBe(false);
    expect(existsSync(deep)).toBe(true);
    expect(await recoverLeftovers(home.dataDir, [home.root])).toBeNull();
  });
});
