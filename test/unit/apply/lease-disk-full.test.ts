// Codex's lease never outlives its holder: on a really full disk (a small tmpfs: the kernel's ENOSPC) a failed
// Apply hands it back or keeps its record and retries; a start finds a dead holder from Codex's row alone.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, lockPathFor } from '../../../electron/core/apply';
import { RELEASE_RETRY_MS } from '../../../electron/core/lease/codex-lease';
import { leaseRecordDir } from '../../../electron/core/lease/lease-row';
import { namespaceId } from '../../../electron/core/platform/host-identity';
import { createProposal, setDecisions } from '../../../electron/core/review/proposals';
import { createStudioService } from '../../../electron/core/service/service';
import { openStudioDb } from '../../../electron/core/studio-db';
import { makeTempDir } from '../helpers';
import { type TestHome, REPO, ensureCompiled, globalRow, leftoverTemps, makeHome, planFor, setGlobalRow } from './helpers';
import { mountTmpfs, tmpfsUnavailable } from './tmpfs';

const BIN = join(REPO, 'electron', 'host', 'bin.cjs');
let temp: { dir: string; cleanup: () => Promise<void> };
let noTmpfs: string | null = null;

beforeAll(async () => {
  ensureCompiled();
  temp = await makeTempDir();
  noTmpfs = tmpfsUnavailable();
  if (noTmpfs) console.log(`[lease-disk-full] tmpfs tests skipped: ${noTmpfs}`);
}, 300_000);
afterAll(async () => temp.cleanup());

/** A pid that existed and is gone (a child that already exited). */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' }).pid as number;
}

const studioHeld = (row: Record<string, unknown> | undefined) =>
  row?.status === 'running' && String(row.worker_id ?? '').startsWith('memory-studio:');
const records = (dataDir: string) => (existsSync(leaseRecordDir(dataDir)) ? readdirSync(leaseRecordDir(dataDir)) : []);

function cli(args: string[], home: TestHome): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [BIN, ...args, '--codex-home', home.codexHome, '--data-dir', home.dataDir, '--json'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
}

describe('a dead holder whose lease record is gone', () => {
  it('is found from Codex’s row alone at the next start (CLI or service) and handed back as pending', async () => {
    const home = await makeHome(join(temp.dir, 'row-only'), 51);
    const before = globalRow(home.dbPath) as Record<string, unknown>;
    for (const start of ['cli', 'service'] as const) {
      const worker = `memory-studio:${deadPid()}@${namespaceId()}`;
      const leaseUntil = Math.floor(Date.now() / 1000) + 100;
      setGlobalRow(home.dbPath, { status: 'running', worker_id: worker, ownership_token: `lost-${start}`, lease_until: leaseUntil });
      expect(records(home.dataDir)).toEqual([]);
      if (start === 'cli') {
        const run = cli(['secrets'], home);
        expect([0, 1], run.stderr).toContain(run.status);
        expect(run.stderr).toContain("Codex's consolidation lease handed back (1)");
      } else {
        const service = createStudioService({
          home: { codexHome: home.codexHome, source: 'flag' },
          dataDir: home.dataDir,
          host: 'serve',
          appVersion: 'test',
          watch: false,
          log: () => undefined,
        });
        try {
          await service.call('review.list', {});
        } finally {
          service.dispose();
        }
      }
      // Nothing says what the row was before the dead claim: it goes back as an expired run asking for consolidation.
      expect(globalRow(home.dbPath)).toMatchObject({
        status: 'pending',
        worker_id: null,
        ownership_token: null,
        lease_until: null,
        retry_at: null,
        input_watermark: expect.any(Number),
      });
      setGlobalRow(home.dbPath, before);
    }
  });

  it('is left alone while its holder lives, or belongs to another machine, boot or container', async () => {
    const home = await makeHome(join(temp.dir, 'row-alive'), 52);
    const now = Math.floor(Date.now() / 1000);
    for (const worker of [`memory-studio:${process.pid}@${namespaceId()}`, `memory-studio:${deadPid()}@ffffffffffff`]) {
      setGlobalRow(home.dbPath, { status: 'running', worker_id: worker, ownership_token: 'alive', lease_until: now + 100 });
      const run = cli(['secrets'], home);
      expect([0, 1], run.stderr).toContain(run.status);
      expect(globalRow(home.dbPath)).toMatchObject({ status: 'running', worker_id: worker, ownership_token: 'alive' });
    }
  });
});

describe('a full disk', () => {
  it.skipIf(tmpfsUnavailable() !== null)(
    'while the lease cannot be written back: the record stays and the release is retried until it succeeds',
    async () => {
      const disk = mountTmpfs(join(temp.dir, 'retry-disk'), 4);
      try {
        const home = await makeHome(disk.dir, 53);
        const before = globalRow(home.dbPath) as Record<string, unknown>;
        // A reader (Codex reading its DB) keeps the WAL from being reset, so our release must grow it: on a full
        // disk it cannot.
        const reader = new Database(home.dbPath, { readonly: true });
        reader.exec('BEGIN');
        reader.prepare('SELECT count(*) FROM jobs').get();
        const plan = await planFor(home, 'retry', { 'memory_summary.md': 'v1\n## User preferences\n- written on a full disk\n' });
        const outcome = await applyPlan(plan, { dataDir: home.dataDir, faults: { beforeRelease: () => disk.fill(0) } });
        // The change is in place and the Apply succeeded: the lease is what is left to hand back.
        expect(outcome.applied.map((a) => a.relPath)).toEqual(['memory_summary.md']);
        expect(await readFile(join(home.root, 'memory_summary.md'), 'utf8')).toContain('written on a full disk');
        expect(globalRow(home.dbPath)).toMatchObject({ status: 'running', worker_id: `memory-studio:${process.pid}@${namespaceId()}` });
        expect(records(home.dataDir)).toHaveLength(1);
        reader.exec('COMMIT');
        reader.close();
        disk.drain();
        // The retry runs every RELEASE_RETRY_MS; a generous deadline only guards against a hang.
        const deadline = Date.now() + RELEASE_RETRY_MS * 6;
        while (studioHeld(globalRow(home.dbPath)) || records(home.dataDir).length > 0) {
          if (Date.now() > deadline) throw new Error(`the lease was not handed back within ${(RELEASE_RETRY_MS * 6) / 1000} s`);
          await new Promise((r) => setTimeout(r, 200));
        }
        expect(globalRow(home.dbPath)).toMatchObject({ status: 'pending', worker_id: before.worker_id, lease_until: before.lease_until });
        expect(existsSync(lockPathFor(home.dataDir, home.root))).toBe(false);
      } finally {
        disk.unmount();
      }
    },
  );
});

/** A proposal replacing MEMORY.md with ~300 KB (more than most levels leave free), every hunk accepted. */
async function bigProposal(home: TestHome, round: number): Promise<{ id: string; content: string }> {
  const db = openStudioDb(home.dataDir);
  try {
    const content = `# Task Group: disk-full round ${round}\n\n${'- a remembered detail, long enough to take some room\n'.repeat(6000)}`;
    const proposal = await createProposal(db, {
      title: `Disk full ${round}`,
      source: 'edit',
      files: [{ version: 'v1', root: home.root, relPath: 'MEMORY.md', proposedContent: content }],
    });
    setDecisions(
      db,
      proposal.id,
      proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])) })),
    );
    return { id: proposal.id, content };
  } finally {
    db.close();
  }
}

function proposalStatus(home: TestHome, id: string): { status: string; entries: number } {
  const db = new Database(join(home.dataDir, 'studio.sqlite'), { readonly: true });
  try {
    const row = db.prepare('SELECT status FROM proposals WHERE id = ?').get(id) as { status: string };
    const entries = (db.prepare('SELECT count(*) AS n FROM history WHERE proposal_id = ?').get(id) as { n: number }).n;
    return { status: row.status, entries };
  } finally {
    db.close();
  }
}

const LEVELS_KB = [0, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 512, 1024, 4096];

describe('a full home disk, level by level (the probe’s disk-full runs)', () => {
  it.skipIf(tmpfsUnavailable() !== null)(
    `an Apply with ${LEVELS_KB.join(', ')} KB free: no torn file, a clear error, the lease never held by a dead process`,
    async () => {
      const disk = mountTmpfs(join(temp.dir, 'full-disk'), 32);
      const defects: string[] = [];
      const elsewhere: string[] = [];
      const figures = { tries: 0, applied: 0, refused: 0, clean: 0 };
      try {
        const home = await makeHome(disk.dir, 54);
        for (const [round, freeKb] of LEVELS_KB.entries()) {
          figures.tries++;
          const found: string[] = [];
          const base = await readFile(join(home.root, 'MEMORY.md'), 'utf8');
          const { id, content } = await bigProposal(home, round);
          disk.fill(freeKb);
          const run = spawnSync(process.execPath, [BIN, 'apply', id, '--data-dir', home.dataDir, '--json'], {
            encoding: 'utf8',
            timeout: 120_000,
          });
          const answer = JSON.parse(run.stdout || '{}') as { entry?: unknown; error?: { message: string; hint?: string } };
          const now = await readFile(join(home.root, 'MEMORY.md'), 'utf8');
          if (now !== base && now !== content) found.push('MEMORY.md is neither its base nor the proposal');
          if (run.status === 0) figures.applied++;
          else {
            figures.refused++;
            const message = answer.error?.message ?? run.stderr;
            // A bare SQLite message is Apply's (the lease, the history entry); the CLI's "Unexpected error" on a full
            // disk comes from opening the Studio DB before Apply starts (issue 30's defect 7, another part): counted.
            if (/^(database or disk is full|disk I\/O error)$/.test(message)) found.push(`unclear error: ${message}`);
            if (message.startsWith('Unexpected error')) elsewhere.push(`${freeKb} KB free: ${message.split('\n')[0] ?? ''}`);
          }
          disk.drain();
          // Read once there is room again (a reader needs some too); the row is as the exited Apply left it.
          if (studioHeld(globalRow(home.dbPath)) && records(home.dataDir).length === 0)
            found.push('Codex’s lease is held by the exited Apply and its record is gone');
          const start = cli(['secrets'], home);
          if (start.status !== 0 && start.status !== 1) found.push(`the next start failed: ${start.stderr}`);
          if (studioHeld(globalRow(home.dbPath))) found.push('Codex’s lease is still held after the next start');
          if (records(home.dataDir).length > 0) found.push('a lease record is left after the next start');
          if (leftoverTemps(home.root).length > 0) found.push('temp files are left after the next start');
          const { status, entries } = proposalStatus(home, id);
          const landed = (await readFile(join(home.root, 'MEMORY.md'), 'utf8')) === content;
          if (landed !== (status === 'applied') || entries !== (landed ? 1 : 0))
            found.push(`the proposal is ${status} with ${entries} history entr(ies) while its file is ${landed ? 'in place' : 'not'}`);
          if (found.length === 0) figures.clean++;
          defects.push(...found.map((f) => `${freeKb} KB free: ${f}`));
        }
      } finally {
        disk.unmount();
      }
      console.log(
        `[probe:disk-full] ${JSON.stringify({ ...figures, defects: defects.length, unclearBeforeApply: elsewhere.length })}${[...defects, ...elsewhere.map((e) => `(before Apply) ${e}`)].map((d) => `\n  ${d}`).join('')}`,
      );
      expect(defects).toEqual([]);
    },
  );
});
