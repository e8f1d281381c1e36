// The heavy generated home (4,096 selected threads, 4,000+ sessions): health and provenance stay correct and fast.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPipelineHealth } from '../../../electron/core/codex-db';
import { clearSessionScanCache, collectUsage, neverCited } from '../../../electron/core/sessions';
import { cleanupHomes, FIXTURE_NOW, makeHome, type TestHome } from '../codex-db/home-fixture';

let t: TestHome;

beforeAll(async () => {
  t = await makeHome({ scale: 'heavy' });
}, 300_000);
afterAll(cleanupHomes);

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

describe('heavy home', () => {
  it('reads pipeline health with every failed job and thread mode', async () => {
    const { value: report, ms } = await timed(() => readPipelineHealth(t.home, { now: FIXTURE_NOW }));
    console.info(`heavy health: ${ms.toFixed(0)} ms`);
    expect(report.problems).toEqual([]);
    for (const v of report.versions) {
      expect(v.stage1Jobs?.byStatus).toMatchObject({ error: t.manifest.db.failedJobs, done: t.manifest.db.stage1Rows });
      expect(v.stage1Jobs?.issues.every((i) => i.lastError && i.rolloutPath)).toBe(true);
      expect(v.globalJob?.status).toBe('done');
      expect(v.outputs?.total).toBe(t.manifest.db.stage1Rows);
    }
    expect(report.threads?.byMode).toMatchObject({ disabled: t.manifest.db.disabledThreads, polluted: t.manifest.db.pollutedThreads });
  });

  it('collects usage over every session cold, and warm from the scan cache', async () => {
    clearSessionScanCache();
    const cold = await timed(() => collectUsage(t.home));
    const warm = await timed(() => collectUsage(t.home));
    console.info(
      `heavy collectUsage: cold ${cold.ms.toFixed(0)} ms, warm ${warm.ms.toFixed(0)} ms over ${cold.value.sessions.scanned} sessions`,
    );
    expect(cold.value.sessions).toMatchObject({
      scanned: t.manifest.sessions,
      citationBlocks: t.manifest.db.citations,
      unreadable: 0,
      cacheHits: 0,
    });
    expect(cold.value.files.reduce((n, f) => n + f.count, 0)).toBe(t.manifest.db.citationEntries);
    expect(warm.value.sessions.cacheHits).toBe(t.manifest.sessions);
  });

  it('finds the never-cited files among thousands of rollout summaries', async () => {
    const { value: report, ms } = await timed(() => neverCited(t.home, 'v1'));
    console.info(`heavy neverCited: ${ms.toFixed(0)} ms, ${report.files.length} of ${report.considered}`);
    const usage = await collectUsage(t.home);
    const citedSummaries = new Set(usage.files.filter((f) => f.kind === 'rollout-summary').map((f) => f.path));
    expect(report.files.some((f) => citedSummaries.has(f.path))).toBe(false);
    // Every cited thread is a selected one, cited both by its summary path and by its id.
    expect(citedSummaries.size).toBe(usage.threads.length);
    expect(report.files.filter((f) => f.kind === 'rollout-summary')).toHaveLength(t.manifest.db.stage1Rows - usage.threads.length);
  });
});
