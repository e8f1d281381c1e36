// Pipeline health on a generated home: failed stage-1 jobs, the global job and its cooldown, thread modes, outputs.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPipelineHealth } from '../../../electron/core/codex-db';
import { HealthReportSchema, type VersionHealth } from '../../../shared/health';
import { cleanupHomes, FIXTURE_NOW, makeHome, type TestHome } from './home-fixture';

let t: TestHome;

beforeAll(async () => {
  t = await makeHome();
});
afterAll(cleanupHomes);

function rows<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

function version(report: { versions: VersionHealth[] }, v: 'v1' | 'v2'): VersionHealth {
  const found = report.versions.find((x) => x.version === v);
  if (!found) throw new Error(`no ${v} in the report`);
  return found;
}

describe('readPipelineHealth on a small generated home', () => {
  it('matches the health schema and reports no problems', async () => {
    const report = await readPipelineHealth(t.home, { now: FIXTURE_NOW });
    expect(() => HealthReportSchema.parse(report)).not.toThrow();
    expect(report.problems).toEqual([]);
    expect(report.config.activeVersions).toEqual(['v1', 'v2']);
    expect(report.config.memories.maxUnusedDays).toBe(60);
    expect(report.now.seconds).toBe(FIXTURE_NOW.getTime() / 1000);
    expect(report.now.iso).toBe(FIXTURE_NOW.toISOString());
  });

  it('lists the failed stage-1 jobs with their last_error, retry state and thread', async () => {
    const report = await readPipelineHealth(t.home, { now: FIXTURE_NOW });
    const expected = rows<{ job_key: string; last_error: string; retry_remaining: number; retry_at: number }>(
      join(t.dir, 'memories_1.sqlite'),
      "SELECT job_key, last_error, retry_remaining, retry_at FROM jobs WHERE kind = 'memory_stage1' AND status = 'error' ORDER BY job_key",
    );
    const v1 = version(report, 'v1');
    expect(v1.tablesIn).toBe('memory-db');
    expect(v1.stage1Jobs?.byStatus.error).toBe(t.manifest.db.failedJobs);
    expect(v1.stage1Jobs?.byStatus.done).toBe(t.manifest.db.stage1Rows);
    expect(v1.stage1Jobs?.issuesTotal).toBe(t.manifest.db.failedJobs);
    const issues = [...(v1.stage1Jobs?.issues ?? [])].sort((a, b) => (a.threadId < b.threadId ? -1 : 1));
    expect(issues.map((i) => [i.threadId, i.lastError, i.retryRemaining, i.retryAt?.seconds])).toEqual(
      expected.map((e) => [e.job_key, e.last_error, e.retry_remaining, e.retry_at]),
    );
    for (const issue of issues) {
      expect(issue.lastError).toMatch(/\S/);
      expect(issue.rolloutPath).toContain(issue.threadId);
      expect(issue.cwd).toMatch(/^\/home\/dana\//);
      const nowSec = FIXTURE_NOW.getTime() / 1000;
      const want = issue.retryRemaining === 0 ? 'exhausted' : (issue.retryAt?.seconds ?? 0) > nowSec ? 'backoff' : 'due';
      expect(issue.retryState).toBe(want);
    }
  });

  it('computes the global job cooldown from finished_at, and the claim exactly as Codex would', async () => {
    const [g] = rows<{ finished_at: number; status: string }>(
      join(t.dir, 'memories_1.sqlite'),
      "SELECT finished_at, status FROM jobs WHERE kind = 'memory_consolidate_global' AND job_key = 'global'",
    );
    if (!g) throw new Error('fixture has no global job');
    const during = await readPipelineHealth(t.home, { now: new Date((g.finished_at + 100) * 1000) });
    const job = version(during, 'v1').globalJob;
    expect(job?.status).toBe('done');
    expect(job?.lastError).toBeNull();
    expect(job?.ownershipTokenPresent).toBe(true);
    expect(job?.leaseLive).toBe(false);
    expect(job?.cooldownEndsAt?.seconds).toBe(g.finished_at + 21_600);
    expect(job?.cooldownActive).toBe(true);
    expect(version(during, 'v1').globalClaim).toMatchObject({
      claimableNow: false,
      outcome: 'skipped_cooldown',
      nextClaimAt: { seconds: g.finished_at + 21_600 },
    });

    const after = await readPipelineHealth(t.home, { now: new Date((g.finished_at + 21_600) * 1000) });
    expect(version(after, 'v1').globalJob?.cooldownActive).toBe(false);
    expect(version(after, 'v1').globalClaim).toMatchObject({ claimableNow: true, outcome: 'claimable' });
  });

  it('counts threads by memory mode and archive state from the catalog', async () => {
    const report = await readPipelineHealth(t.home, { now: FIXTURE_NOW });
    expect(report.threads?.total).toBe(t.manifest.threads);
    expect(report.threads?.byMode.disabled).toBe(t.manifest.db.disabledThreads);
    expect(report.threads?.byMode.polluted).toBe(t.manifest.db.pollutedThreads);
    expect(report.threads?.archived).toBe(t.manifest.db.archivedThreads);
    expect(report.threads?.byMode.enabled).toBe(t.manifest.threads - t.manifest.db.disabledThreads - t.manifest.db.pollutedThreads);
  });

  it('counts stage-1 outputs: selection, usage, staleness and blanks', async () => {
    const report = await readPipelineHealth(t.home, { now: FIXTURE_NOW });
    const out = version(report, 'v1').outputs;
    const [usage] = rows<{ used: number; total: number }>(
      join(t.dir, 'memories_1.sqlite'),
      'SELECT SUM(COALESCE(usage_count, 0) > 0) AS used, COUNT(*) AS total FROM stage1_outputs',
    );
    expect(out?.total).toBe(t.manifest.db.stage1Rows);
    expect(out?.selectedForPhase2).toBe(t.manifest.db.stage1Rows);
    expect(out?.withUsage).toBe(usage?.used);
    expect(out?.neverUsed).toBe((usage?.total ?? 0) - (usage?.used ?? 0));
    expect(out?.unusedCutoff.seconds).toBe(FIXTURE_NOW.getTime() / 1000 - 60 * 86_400);
    expect(out?.nextSelectionSize).toBe(Math.min(out?.eligibleForPhase2 ?? 0, 256));
    // Far in the future every row is stale; selected rows are kept from pruning, as in Codex.
    const later = await readPipelineHealth(t.home, { now: new Date(FIXTURE_NOW.getTime() + 400 * 86_400_000) });
    const stale = version(later, 'v1').outputs;
    expect(stale?.staleByMaxUnusedDays).toBe(t.manifest.db.stage1Rows);
    expect(stale?.prunable).toBe(0);
    expect(stale?.eligibleForPhase2).toBe(0);
  });
});
