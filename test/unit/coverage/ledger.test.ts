// The coverage ledger on a home with a session in every situation: stages, reasons, sources, retry states, the claim
// order, aging out, where each session shows in the root, and totals equal to direct SQL on Codex's own tables.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCoverage } from '../../../electron/core/coverage';
import { CoverageReportSchema, type CoverageReport, type CoverageThread } from '../../../shared/coverage';
import { BACKOFF_ERROR, ids, scenario, type Name } from './scenario';
import { DAY, HOUR, makeWorld, nonZero, stemOf, totalsBySql, type World } from './world';

const NOW = 1_800_000_000;
let world: World;
let report: CoverageReport;
const stem = stemOf(scenario(NOW).selectedOutput);

beforeAll(async () => {
  world = await makeWorld(scenario(NOW));
  report = await buildCoverage(world.home, {}, NOW);
});
afterAll(() => world.cleanup());

const thread = (name: Name): CoverageThread => {
  const found = report.threads.find((t) => t.threadId === ids[name]);
  if (!found) throw new Error(`no ${name} in the report`);
  return found;
};

describe('the coverage ledger', () => {
  it('reports every thread of the catalog, in the contract shape, newest first, without problems', () => {
    expect(() => CoverageReportSchema.parse(report)).not.toThrow();
    expect(report.threads).toHaveLength(Object.keys(ids).length);
    expect(report).toMatchObject({ version: 'v2', sinceDays: null, problems: [], generatedAt: { seconds: NOW } });
    expect(report.window).toEqual({ maxRolloutAgeDays: 10, minRolloutIdleHours: 6, maxRolloutsPerStartup: 2 });
    const times = report.threads.map((t) => t.updatedAt?.seconds ?? -Infinity);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('counts per stage and not-eligible per reason exactly as direct SQL on the same files', () => {
    const sql = totalsBySql(world.stateDb, world.memoryDb, NOW, { maxAgeDays: 10, idleHours: 6 });
    expect(nonZero(report.totals)).toEqual(sql.totals);
    expect(nonZero(report.notEligible)).toEqual(sql.notEligible);
    expect(report.totals).toEqual({
      'not-eligible': 11,
      waiting: 3,
      extracting: 1,
      failed: 5,
      exhausted: 2,
      extracted: 3,
      selected: 1,
    });
    expect(report.notEligible).toEqual({
      source: 5,
      'memory-disabled': 1,
      polluted: 1,
      archived: 1,
      'too-recent': 1,
      'too-old': 1,
      'no-time': 1,
    });
  });

  it('judges each session as phase 1 does', () => {
    const expected: Array<[Name, CoverageThread['stage'], CoverageThread['reason']]> = [
      ['waitingNew', 'waiting', null],
      ['waitingVscode', 'waiting', null],
      ['waitingOld', 'waiting', null],
      ['extracting', 'extracting', null],
      ['failedBackoff', 'failed', null],
      ['failedDue', 'failed', null],
      ['failedNewInput', 'failed', null],
      ['failedLeaseExpired', 'failed', null],
      ['failedTooOld', 'failed', 'too-old'],
      ['exhausted', 'exhausted', null],
      ['exhaustedTooOld', 'exhausted', 'too-old'],
      ['extracted', 'extracted', null],
      ['selected', 'selected', null],
      ['extractedStale', 'extracted', null],
      ['extractedNoOutput', 'extracted', null],
      ['exec', 'not-eligible', 'source'],
      ['atlas', 'not-eligible', 'source'],
      ['chatgpt', 'not-eligible', 'source'],
      ['subagent', 'not-eligible', 'source'],
      ['noMessage', 'not-eligible', 'source'],
      ['disabled', 'not-eligible', 'memory-disabled'],
      ['polluted', 'not-eligible', 'polluted'],
      ['archived', 'not-eligible', 'archived'],
      ['tooRecent', 'not-eligible', 'too-recent'],
      ['tooOld', 'not-eligible', 'too-old'],
      ['noTime', 'not-eligible', 'no-time'],
    ];
    for (const [name, stage, reason] of expected) expect([name, thread(name).stage, thread(name).reason]).toEqual([name, stage, reason]);
  });

  it('names the sources people know: Atlas, ChatGPT, codex exec, a sub-agent', () => {
    expect(thread('atlas')).toMatchObject({ source: '{"custom":"atlas"}', sourceLabel: 'Atlas' });
    expect(thread('chatgpt')).toMatchObject({ source: '{"custom":"chatgpt"}', sourceLabel: 'ChatGPT' });
    expect(thread('exec').sourceLabel).toBe('codex exec');
    expect(thread('subagent').sourceLabel).toBe('sub-agent (review)');
    expect(thread('waitingVscode').sourceLabel).toBe('VS Code');
    expect(thread('waitingNew').sourceLabel).toBe('Codex CLI');
    expect(thread('atlas').detail).toMatch(/Its source is Atlas: .*only interactive CLI and VS Code/);
    expect(thread('noMessage').detail).toMatch(/no user message/);
  });

  it('reads retry states as try_claim_stage1_job does, with the retry repair only where it helps', () => {
    expect(thread('failedBackoff').job).toMatchObject({
      status: 'error',
      retryState: 'backoff',
      retryRemaining: 2,
      lastError: BACKOFF_ERROR,
      retryAt: { seconds: NOW + 1800 },
    });
    expect(thread('failedBackoff').detail).toMatch(/\("stage-1 output was not valid JSON"\)\. Codex retries after .* \(2 tries left\)/);
    expect(thread('failedDue').job?.retryState).toBe('due');
    expect(thread('failedNewInput').job?.retryState).toBe('new-input');
    expect(thread('failedNewInput').detail).toMatch(/changed since, which resets its retries/);
    expect(thread('failedLeaseExpired').job?.retryState).toBe('lease-expired');
    expect(thread('failedLeaseExpired').detail).toMatch(/worker vanished/);
    expect(thread('exhausted').job?.retryState).toBe('exhausted');
    expect(thread('exhausted').detail).toMatch(/No retries are left: Codex never tries again unless the session changes/);
    expect(thread('failedTooOld').detail).toMatch(/Codex will not retry it: last active .* more than max_rollout_age_days \(10\) ago/);
    const repairs = Object.fromEntries(report.threads.filter((t) => t.repairs.length > 0).map((t) => [t.threadId, t.repairs]));
    expect(repairs).toEqual({ [ids.failedBackoff]: ['retry'], [ids.exhausted]: ['retry'] });
  });

  it('says where each claimable session stands in the startup claim, newest first, two per start', () => {
    expect(thread('waitingNew').detail).toMatch(/1st in line, so the next session start takes it/);
    expect(thread('waitingVscode').detail).toMatch(/2nd in line, so the next session start takes it/);
    expect(thread('failedNewInput').detail).toMatch(/3rd in line, so the 2nd session start from now/);
    expect(thread('failedDue').detail).toMatch(/4th in line/);
    expect(thread('failedLeaseExpired').detail).toMatch(/5th in line, so the 3rd session start/);
    expect(thread('extractedStale').detail).toMatch(/The session changed since its extraction, so Codex extracts it again: .*6th in line/);
    expect(thread('waitingOld').detail).toMatch(/7th in line, so the 4th session start/);
    expect(thread('extracting').detail).toMatch(/Codex is extracting it now \(worker worker-1\)/);
  });

  it('gives the window: when a too-recent session becomes eligible, when unextracted ones age out, the soonest listed', () => {
    expect(thread('tooRecent').eligibleAt?.seconds).toBe(NOW - 2 * HOUR + 6 * HOUR);
    expect(thread('waitingOld').agesOutAt?.seconds).toBe(NOW - 9.5 * DAY + 10 * DAY);
    expect(thread('tooOld').agesOutAt?.seconds).toBe(NOW - 20 * DAY);
    expect(thread('selected').agesOutAt).toBeNull();
    expect(thread('disabled').agesOutAt).toBeNull();
    expect(report.agingOut).toEqual([ids.waitingOld, ids.failedLeaseExpired, ids.failedDue]);
  });

  it('carries the stage-1 output, and says what an extraction that kept nothing means', () => {
    expect(thread('selected').output).toEqual({
      sourceUpdatedAt: { seconds: NOW - 40 * DAY, iso: expect.any(String) },
      generatedAt: { seconds: NOW - 40 * DAY + HOUR, iso: expect.any(String) },
      rolloutSlug: 'Fix flaky PDF export',
      selectedForPhase2: true,
      usageCount: 4,
      lastUsage: { seconds: NOW - 2 * DAY, iso: expect.any(String) },
    });
    expect(thread('selected').detail).toMatch(/part of the last successful consolidation\. Sessions cited it 4 times/);
    expect(thread('extracted').output?.selectedForPhase2).toBe(false);
    expect(thread('extractedNoOutput').output).toBeNull();
    expect(thread('extractedNoOutput').detail).toMatch(/no stage-1 output remains/);
  });

  it('finds each session in the root: its summary by name or header, the lines that name it by id or stem', () => {
    expect(thread('selected').presence).toEqual({
      rolloutSummary: `rollout_summaries/${stem}.md`,
      namedIn: [
        { relPath: 'MEMORY.md', lines: 3 },
        { relPath: 'memory_summary.md', lines: 1 },
        { relPath: 'skills/pdf/SKILL.md', lines: 1 },
      ],
    });
    expect(thread('extracted').presence).toEqual({ rolloutSummary: 'rollout_summaries/handmade.md', namedIn: [] });
    expect(thread('failedBackoff').presence.namedIn).toEqual([{ relPath: 'MEMORY.md', lines: 1 }]);
    // raw_memories.md is Codex's own rendering of the DB, not a file people read for where a session went.
    expect(thread('waitingNew').presence).toEqual({ rolloutSummary: null, namedIn: [] });
  });

  it("filters by sinceDays on updated_at, keeping Codex's claim order over the whole catalog", async () => {
    const recent = await buildCoverage(world.home, { sinceDays: 3 }, NOW);
    expect(recent.sinceDays).toBe(3);
    expect(recent.threads.every((t) => (t.updatedAt?.seconds ?? 0) >= NOW - 3 * DAY)).toBe(true);
    const sql = totalsBySql(world.stateDb, world.memoryDb, NOW, { maxAgeDays: 10, idleHours: 6 }, 3);
    expect(nonZero(recent.totals)).toEqual(sql.totals);
    expect(nonZero(recent.notEligible)).toEqual(sql.notEligible);
    expect(recent.threads.map((t) => t.threadId)).not.toContain(ids.waitingOld);
    expect(recent.threads.find((t) => t.threadId === ids.failedNewInput)?.detail).toMatch(/3rd in line/);
    expect(recent.agingOut).toEqual([]);
  });

  it('reports another version from its own DB: here v1 has none, so every session waits or is not eligible', async () => {
    const v1 = await buildCoverage(world.home, { version: 'v1' }, NOW);
    expect(v1.version).toBe('v1');
    expect(v1.problems).toEqual([]);
    expect(v1.totals.extracted + v1.totals.selected + v1.totals.failed + v1.totals.exhausted).toBe(0);
    expect(v1.consolidation.state).toBe('absent');
    expect(v1.threads.find((t) => t.threadId === ids.waitingNew)?.detail).toMatch(
      /But Codex writes v2 memories only \(memories\.version\), so nothing is extracted into v1\./,
    );
  });
});
