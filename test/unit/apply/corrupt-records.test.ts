// Records read back from the data folder that drive crash recovery, damaged on disk (cut short, valid JSON of another
// shape, one field of the wrong type): an interrupted Apply's journal is refused, never guessed at, and nothing is
// touched; a lock file that cannot be read holds its root until the stale rule proves it free; a lease record that
// cannot be read counts as lost, and the row alone hands Codex's lease back. Real files, real SQLite.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_COLUMNS } from '../../../electron/core/codex-db/jobs';
import { applyPlan, lockPathFor, recoverInterruptedApplies, recoverLeftovers } from '../../../electron/core/apply';
import { journalDir, journalPath } from '../../../electron/core/apply/journal';
import { LOCK_MAX_AGE_MS } from '../../../electron/core/apply/lock-file';
import { trashDir } from '../../../electron/core/apply/trash';
import { claimLease, releaseLease } from '../../../electron/core/lease/codex-lease';
import { leaseRecordDir, leaseRecordPath } from '../../../electron/core/lease/lease-row';
import { namespaceId } from '../../../electron/core/platform/host-identity';
import { careForDataFolder } from '../../../electron/core/service/data-folder-care';
import { makeTempDir } from '../helpers';
import { type TestHome, globalRow, makeHome, planFor, setGlobalRow, sha } from './helpers';

let home: TestHome;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const temp = await makeTempDir();
  cleanup = temp.cleanup;
  home = await makeHome(temp.dir, 43);
}, 300_000);
afterAll(async () => cleanup());

/** A pid that existed and is gone (a child that already exited). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
  if (child.pid === undefined) throw new Error('no child pid');
  return child.pid;
}

/** The three ways a record is damaged: cut short, valid JSON of another shape, one field of the wrong type. */
interface Damage<T> {
  name: string;
  damage: (record: T) => string;
}

function damages<T>(wrongField: (record: T) => unknown): Damage<T>[] {
  return [
    { name: 'cut short', damage: (r) => JSON.stringify(r).slice(0, Math.floor(JSON.stringify(r).length / 2)) },
    { name: 'valid JSON of another shape', damage: (r) => JSON.stringify([r]) },
    { name: 'a field of the wrong type', damage: (r) => JSON.stringify(wrongField(r)) },
  ];
}

describe('the journal of an interrupted Apply that does not parse', () => {
  const rel = 'memory_summary.md';
  const proposed = 'v1\n## User preferences\n- written by the interrupted Apply\n';

  /** What a process killed between its temp file and its rename leaves: the journal, the temp file, the base in place. */
  async function interrupted() {
    const base = await readFile(join(home.root, rel));
    const temp = join(home.root, `.${rel}.memory-studio-${deadPid()}-n${namespaceId()}-0123456789ab.tmp`);
    await writeFile(temp, proposed);
    const entry = {
      version: 'v1',
      root: home.root,
      relPath: rel,
      target: join(home.root, rel),
      temp,
      trash: null,
      baseSha256: sha(base),
      targetSha256: sha(proposed),
    };
    return { journal: { id: 'interrupted', pid: deadPid(), createdAt: Date.now(), entries: [entry] }, temp, base };
  }

  type Journal = Awaited<ReturnType<typeof interrupted>>['journal'];
  const wrongTemp = (j: Journal) => ({ ...j, entries: j.entries.map((e) => ({ ...e, temp: 42 })) });

  it.each(damages(wrongTemp))(
    '$name: recovery and Apply refuse, naming it; journal, memory files and temp file untouched',
    async ({ damage }) => {
      const { journal, temp, base } = await interrupted();
      const path = journalPath(home.dataDir, 'interrupted');
      await mkdir(journalDir(home.dataDir), { recursive: true });
      const text = damage(journal);
      await writeFile(path, text);
      const other = await readFile(join(home.root, 'MEMORY.md'));
      const refusal = { kind: 'Invalid', path, message: expect.stringContaining(path) };
      try {
        await expect(recoverLeftovers(home.dataDir, [home.root])).rejects.toMatchObject(refusal);
        await expect(recoverInterruptedApplies(home.dataDir, [home.root])).rejects.toMatchObject(refusal);
        const plan = await planFor(home, 'after-the-crash', { 'MEMORY.md': 'changed while a journal cannot be read\n' });
        await expect(applyPlan(plan, { dataDir: home.dataDir })).rejects.toMatchObject(refusal);
        expect(await readFile(path, 'utf8')).toBe(text);
        expect(await readFile(join(home.root, rel))).toEqual(base);
        expect(await readFile(join(home.root, 'MEMORY.md'))).toEqual(other);
        expect(await readFile(temp, 'utf8')).toBe(proposed);
        expect(existsSync(lockPathFor(home.dataDir, home.root))).toBe(false);
      } finally {
        await rm(path);
        await rm(temp);
      }
    },
  );

  it('keeps the trash whole at start-up: which folder the journal needs is unknown', async () => {
    const path = journalPath(home.dataDir, 'interrupted');
    await mkdir(journalDir(home.dataDir), { recursive: true });
    await writeFile(path, '{"id":"interrupted","pid":');
    const kept = join(trashDir(home.dataDir), 'interrupted', 'v1', 'old.md');
    const text = `token ${['ghp', '1234567890abcdefghijABCDEFGHIJ123456'].join('_')}\n`;
    await mkdir(join(kept, '..'), { recursive: true });
    await writeFile(kept, text);
    try {
      expect(await careForDataFolder(home.dataDir)).toMatchObject({ trashMasked: 0 });
      expect(await readFile(kept, 'utf8')).toBe(text);
    } finally {
      await rm(path);
      await rm(trashDir(home.dataDir), { recursive: true });
    }
  });

  it('the same journal whole is finished as before (the shape this build writes parses)', async () => {
    const { journal, temp } = await interrupted();
    await mkdir(journalDir(home.dataDir), { recursive: true });
    await writeFile(journalPath(home.dataDir, 'interrupted'), JSON.stringify(journal));
    const report = await recoverInterruptedApplies(home.dataDir, [home.root]);
    expect(report.rolledForward).toEqual(['interrupted']);
    expect(await readFile(join(home.root, rel), 'utf8')).toBe(proposed);
    expect(existsSync(temp)).toBe(false);
  });
});

describe('a lock file that does not parse', () => {
  const rel = 'extensions/ad_hoc/notes/locked.md';
  const lock = () => ({
    pid: process.pid,
    hostname: hostname(),
    namespace: namespaceId(),
    startedAt: Date.now(),
    root: home.root,
    token: 't',
  });

  it.each(damages((l: ReturnType<typeof lock>) => ({ ...l, pid: String(l.pid) })))(
    '$name: holds its root (Locked, naming it) until it is silent for the max age, then is taken over',
    async ({ damage }) => {
      const path = lockPathFor(home.dataDir, home.root);
      await mkdir(join(path, '..'), { recursive: true });
      const text = damage(lock());
      await writeFile(path, text);
      const plan = await planFor(home, 'under-a-damaged-lock', { [rel]: 'note\n' });
      await expect(applyPlan(plan, { dataDir: home.dataDir })).rejects.toMatchObject({
        kind: 'Locked',
        path,
        message: expect.stringContaining(path),
      });
      expect(existsSync(join(home.root, rel))).toBe(false);
      expect(await readFile(path, 'utf8')).toBe(text);
      expect(existsSync(journalPath(home.dataDir, 'under-a-damaged-lock'))).toBe(false);
      // Silent for longer than a live holder ever is (it touches its lock every 30 s): stale, as any such lock.
      const old = new Date(Date.now() - LOCK_MAX_AGE_MS - 60_000);
      await utimes(path, old, old);
      await applyPlan(plan, { dataDir: home.dataDir });
      expect(await readFile(join(home.root, rel), 'utf8')).toBe('note\n');
      expect(existsSync(path)).toBe(false);
      await rm(join(home.root, rel));
    },
  );

  it('whose writer can still be read and is dead is taken over at once, as before', async () => {
    const path = lockPathFor(home.dataDir, home.root);
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, JSON.stringify({ ...lock(), pid: deadPid(), root: 42 }));
    await applyPlan(await planFor(home, 'over-a-dead-writer', { [rel]: 'note\n' }), { dataDir: home.dataDir });
    expect(existsSync(path)).toBe(false);
    await rm(join(home.root, rel));
  });
});

describe('a lease record that does not parse', () => {
  // Codex's job row, less its key and the watermark a lease never touches.
  const columns = JOB_COLUMNS.filter((c) => !['kind', 'job_key', 'last_success_watermark'].includes(c));

  /** Codex's row as a Memory Studio process left it when it was killed holding the lease, and its record. */
  function heldByDead(token: string) {
    const row = globalRow(home.dbPath) ?? {};
    const previous = Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));
    const pid = deadPid();
    const workerId = `memory-studio:${pid}@${namespaceId()}`;
    setGlobalRow(home.dbPath, {
      status: 'running',
      worker_id: workerId,
      ownership_token: token,
      lease_until: Math.floor(Date.now() / 1000) + 100,
    });
    const record = {
      dbPath: home.dbPath,
      token,
      workerId,
      pid,
      hostname: hostname(),
      namespace: namespaceId(),
      previous: { ...previous, status: 'done' },
    };
    return { record, path: leaseRecordPath(home.dataDir, home.dbPath, token) };
  }

  type OnDisk = ReturnType<typeof heldByDead>['record'];
  const wrongWorker = (r: OnDisk) => ({ ...r, previous: { ...r.previous, worker_id: 42 } });

  it.each(damages(wrongWorker))(
    '$name: is lost; the row, held by a dead holder, goes back `pending` and the record goes',
    async ({ damage }) => {
      const { record, path } = heldByDead('dead-recovered');
      await mkdir(leaseRecordDir(home.dataDir), { recursive: true });
      await writeFile(path, damage(record));
      const report = await recoverLeftovers(home.dataDir, [home.root], { dbPaths: [home.dbPath] });
      expect(report?.releasedLeases).toEqual([home.dbPath]);
      expect(globalRow(home.dbPath)).toMatchObject({ status: 'pending', worker_id: null, ownership_token: null, lease_until: null });
      expect(existsSync(path)).toBe(false);
    },
  );

  it('of a field of the wrong type: an Apply taking the lease over restores the row as if the record were lost', async () => {
    const { record, path } = heldByDead('dead-claimed');
    await mkdir(leaseRecordDir(home.dataDir), { recursive: true });
    await writeFile(path, JSON.stringify(wrongWorker(record)));
    const lease = await claimLease(home.dataDir, home.dbPath, 'v1', Math.floor(Date.now() / 1000));
    await releaseLease(lease, false);
    expect(globalRow(home.dbPath)).toMatchObject({ status: 'pending', worker_id: null, ownership_token: null, lease_until: null });
    await rm(path, { force: true });
  });
});
