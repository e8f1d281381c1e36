// The ledger on generated demo homes: totals equal direct SQL on their DBs, and on the heavy home (4,188 sessions, a
// 5.6 MB MEMORY.md) every selected session is found in its root, read in one pass.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectHome } from '../../../electron/core/codex/home';
import { buildCoverage } from '../../../electron/core/coverage';
import { CoverageReportSchema } from '../../../shared/coverage';
import type { MemoryVersion } from '../../../shared/domain';
import { generateHome } from '../../fixtures';
import { makeTempDir } from '../helpers';
import { nonZero, totalsBySql } from './world';

const NOW_DATE = new Date('2026-03-05T12:00:00Z');
const NOW = Math.floor(NOW_DATE.getTime() / 1000);
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function demo(scale: 'small' | 'heavy', version: 'v1' | 'v2' | 'both') {
  const temp = await makeTempDir();
  cleanups.push(temp.cleanup);
  const dir = join(temp.dir, 'home');
  const manifest = await generateHome({ dir, scale, version, seed: 7, now: NOW_DATE, git: false });
  return { manifest, home: await inspectHome({ codexHome: dir, source: 'flag' }, {}) };
}

const memoryDb = (dir: string, version: MemoryVersion) => join(dir, version === 'v1' ? 'memories_1.sqlite' : 'memories_v2_1.sqlite');

describe('the ledger on demo homes', () => {
  it('counts every stage and reason of a small home as direct SQL does, for both versions', async () => {
    const { manifest, home } = await demo('small', 'both');
    const window = { maxAgeDays: home.config.memories.maxRolloutAgeDays, idleHours: home.config.memories.minRolloutIdleHours };
    for (const version of ['v1', 'v2'] as const) {
      const report = await buildCoverage(home, { version }, NOW);
      expect(() => CoverageReportSchema.parse(report)).not.toThrow();
      expect(report.problems).toEqual([]);
      expect(report.threads).toHaveLength(manifest.threads);
      const sql = totalsBySql(join(home.sqliteHome, 'state_5.sqlite'), memoryDb(home.sqliteHome, version), NOW, window);
      expect(nonZero(report.totals), version).toEqual(sql.totals);
      expect(nonZero(report.notEligible), version).toEqual(sql.notEligible);
      expect(report.totals.selected).toBe(manifest.db.stage1Rows);
      expect(report.totals.failed + report.totals.exhausted).toBe(manifest.db.failedJobs);
      expect(report.consolidation.status).toBe('done');
    }
  });

  it('finds every selected session of the heavy home in its root, and counts as SQL does', async () => {
    const { manifest, home } = await demo('heavy', 'v1');
    const started = performance.now();
    const report = await buildCoverage(home, {}, NOW);
    const elapsed = performance.now() - started;
    expect(report.threads).toHaveLength(manifest.threads);
    const window = { maxAgeDays: home.config.memories.maxRolloutAgeDays, idleHours: home.config.memories.minRolloutIdleHours };
    const sql = totalsBySql(join(home.sqliteHome, 'state_5.sqlite'), memoryDb(home.sqliteHome, 'v1'), NOW, window);
    expect(nonZero(report.totals)).toEqual(sql.totals);
    expect(nonZero(report.notEligible)).toEqual(sql.notEligible);
    const selected = report.threads.filter((t) => t.stage === 'selected');
    expect(selected.length).toBe(manifest.db.stage1Rows);
    expect(selected.every((t) => t.presence.rolloutSummary?.startsWith('rollout_summaries/'))).toBe(true);
    expect(new Set(selected.map((t) => t.presence.rolloutSummary)).size).toBe(selected.length);
    expect(selected.every((t) => t.presence.namedIn.some((f) => f.relPath === 'MEMORY.md'))).toBe(true);
    // No time is asserted (the bench holds figures); printed for whoever reads the log.
    console.log(`[coverage] heavy home: ${report.threads.length} sessions in ${Math.round(elapsed)} ms`);
  });
});
