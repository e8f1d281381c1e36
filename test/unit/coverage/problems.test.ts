// A missing, locked or damaged Codex DB is a problem in the ledger, never a throw, and nothing is written beside it.
import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCoverage } from '../../../electron/core/coverage';
import { CoverageReportSchema, type CoverageReport } from '../../../shared/coverage';
import { releaseFifoAfter } from '../helpers';
import { ids, scenario } from './scenario';
import { makeWorld, stemOf, type World } from './world';

const NOW = 1_800_000_000;
const FAST = { busyTimeoutMs: 50 };
const worlds: World[] = [];
afterEach(async () => {
  for (const w of worlds.splice(0)) await w.cleanup();
});

async function world(): Promise<World> {
  const w = await makeWorld(scenario(NOW));
  worlds.push(w);
  return w;
}

async function coverage(w: World): Promise<CoverageReport> {
  const report = await buildCoverage(w.home, {}, NOW, FAST);
  expect(() => CoverageReportSchema.parse(report)).not.toThrow();
  return report;
}

describe('problems with Codex DBs', () => {
  it('a damaged thread catalog: reported as corrupt, no sessions, the consolidation job still read', async () => {
    const w = await world();
    await writeFile(w.stateDb, randomBytes(8192));
    const report = await coverage(w);
    expect(report.problems).toEqual([expect.objectContaining({ db: 'state', kind: 'corrupt', path: w.stateDb })]);
    expect(report.threads).toEqual([]);
    expect(Object.values(report.totals).every((n) => n === 0)).toBe(true);
    expect(report.consolidation.state).toBe('absent');
  });

  it('a memory DB another connection holds locked: reported as locked, every session still judged from the catalog', async () => {
    const w = await world();
    const holder = new Database(w.memoryDb);
    try {
      // Codex keeps WAL mode, where readers never wait; a rollback-journal copy can be locked, and that is data too.
      holder.pragma('journal_mode = DELETE');
      holder.exec('BEGIN EXCLUSIVE');
      holder.exec("UPDATE jobs SET status = 'error'");
      const before = await readdir(w.home.codexHome);
      const report = await coverage(w);
      expect(report.problems).toEqual([expect.objectContaining({ db: 'memories_v2', kind: 'locked', path: w.memoryDb })]);
      expect(report.threads).toHaveLength(Object.keys(ids).length);
      expect(report.threads.find((t) => t.threadId === ids.failedBackoff)?.stage).toBe('waiting');
      expect(report.totals.selected + report.totals.failed).toBe(0);
      expect(await readdir(w.home.codexHome)).toEqual(before);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect((await coverage(w)).problems).toEqual([]);
  });

  it('a missing memory DB of the version Codex writes: reported as missing', async () => {
    const w = await world();
    await rm(w.memoryDb);
    const report = await coverage(w);
    expect(report.problems).toEqual([expect.objectContaining({ db: 'memories_v2', kind: 'missing' })]);
    expect(report.totals.waiting).toBeGreaterThan(0);
  });

  it('no Codex home files at all: every DB problem listed, an empty ledger, no file created', async () => {
    const w = await world();
    await rm(w.stateDb);
    await rm(w.memoryDb);
    const before = await readdir(w.home.codexHome);
    const report = await coverage(w);
    expect(report.problems.map((p) => [p.db, p.kind])).toEqual([
      ['state', 'missing'],
      ['memories_v2', 'missing'],
    ]);
    expect(report.threads).toEqual([]);
    expect(await readdir(w.home.codexHome)).toEqual(before);
  });

  it.runIf(process.platform !== 'win32')('a FIFO in place of a DB, MEMORY.md or a summary is never waited on', async () => {
    const w = await world();
    const stem = stemOf(scenario(NOW).selectedOutput);
    const fifos = [w.memoryDb, join(w.root, 'MEMORY.md'), join(w.root, 'rollout_summaries', `${stem}.md`)];
    for (const fifo of fifos) {
      await rm(fifo);
      execFileSync('mkfifo', [fifo]);
    }
    const guards = fifos.map((fifo) => releaseFifoAfter(fifo, 20_000));
    try {
      const report = await coverage(w);
      expect(report.problems).toEqual([expect.objectContaining({ db: 'memories_v2', kind: 'unreadable', path: w.memoryDb })]);
      expect(report.threads.find((t) => t.threadId === ids.selected)?.presence).toEqual({
        rolloutSummary: null,
        namedIn: [
          { relPath: 'memory_summary.md', lines: 1 },
          { relPath: 'skills/pdf/SKILL.md', lines: 1 },
        ],
      });
    } finally {
      for (const stop of guards) stop();
    }
  });
});
