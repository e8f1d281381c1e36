// Pipeline truth against real Codex: the coverage ledger equals Codex's own tables, a failed extraction retried and a
// held-back consolidation reclaimed through reviewed proposals are then run by Codex itself, Atlas sessions are never
// extracted, `consolidation_service_tier` reaches the consolidation request, and a root emptied by
// `codex debug clear-memories` is explained, not reported as broken.
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CodexHome, nowSec, runCodex, waitFor } from './support/codex';
import { FakeProvider, requestText, type Phase1Answer } from './support/fake-provider';
import { consolidatedHome } from './support/scenario';
import { studio } from './support/studio';

const provider = new FakeProvider();
beforeAll(() => provider.start());
afterAll(() => provider.stop());

interface CoverageJson {
  version: string;
  totals: Record<string, number>;
  notEligible: Record<string, number>;
  threads: Array<{
    threadId: string;
    stage: string;
    reason: string | null;
    sourceLabel: string;
    repairs: string[];
    job: { status: string; lastError: string | null; retryState: string | null } | null;
    output: { selectedForPhase2: boolean } | null;
  }>;
  consolidation: { state: string; reclaimable: boolean; status: string | null };
}

interface ProposalJson {
  id: string;
  dbChanges: Array<{ db: string; description: string; sqlKind: string }>;
}

const ATLAS = '{"custom":"atlas"}';

/** Per stage, straight from Codex's tables with the rules of `claim_stage1_jobs_for_startup` (no Memory Studio code). */
function stagesBySql(home: CodexHome): { extracted: number; selected: number; failed: number; notInteractive: number } {
  const outputs = home.read(home.memoryDbPath('v2'), (db) => ({
    extracted: (db.prepare('SELECT COUNT(*) AS n FROM stage1_outputs WHERE selected_for_phase2 = 0').get() as { n: number }).n,
    selected: (db.prepare('SELECT COUNT(*) AS n FROM stage1_outputs WHERE selected_for_phase2 = 1').get() as { n: number }).n,
    failed: (
      db
        .prepare(
          "SELECT COUNT(*) AS n FROM jobs WHERE kind = 'memory_stage1' AND status = 'error' AND job_key NOT IN (SELECT thread_id FROM stage1_outputs)",
        )
        .get() as { n: number }
    ).n,
  }));
  const notInteractive = home.read(
    home.sqlitePath('state_5.sqlite'),
    (db) => (db.prepare("SELECT COUNT(*) AS n FROM threads WHERE source NOT IN ('cli', 'vscode')").get() as { n: number }).n,
  );
  return { ...outputs, notInteractive };
}

function stage1Job(home: CodexHome, threadId: string): { status: string; retry_at: number | null; retry_remaining: number } | undefined {
  return home.read(
    home.memoryDbPath('v2'),
    (db) =>
      db.prepare("SELECT status, retry_at, retry_remaining FROM jobs WHERE kind = 'memory_stage1' AND job_key = ?").get(threadId) as
        { status: string; retry_at: number | null; retry_remaining: number } | undefined,
  );
}

const outputIds = (home: CodexHome) =>
  home.read(home.memoryDbPath('v2'), (db) =>
    (db.prepare('SELECT thread_id FROM stage1_outputs').all() as { thread_id: string }[]).map((r) => r.thread_id),
  );

it('a failed extraction and a held-back consolidation, repaired through reviewed proposals, are run by real Codex', async () => {
  const home = await CodexHome.create(provider, { memoriesConfig: 'consolidation_service_tier = "flex"' });
  const dataDir = join(home.base, 'studio-data');
  const cli = <T>(args: string[]) => studio<T>([...args, '--codex-home', home.codexHome, '--data-dir', dataDir]);
  const applyAll = async (proposal: ProposalJson) => {
    const applied = await cli(['apply', proposal.id, '--accept', 'all']);
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
  };
  try {
    // First start: phase 2 runs on the seeded instructions; the agent writes nothing, so Codex fails it and backs off.
    provider.hooks.phase2Command = () => null;
    let since = nowSec();
    const first = await home.exec('first session', { holdUntil: home.phase2Finished('v2', since) });
    expect(first.code, first.stderr.slice(-2000)).toBe(0);
    const phase2 = provider.of('phase2');
    expect(phase2.length).toBeGreaterThan(0);
    expect(
      phase2.every((r) => (r.body as { service_tier?: string } | null)?.service_tier === 'flex'),
      'the tier reaches phase 2',
    ).toBe(true);
    expect(provider.of('ordinary').every((r) => (r.body as { service_tier?: string } | null)?.service_tier === undefined)).toBe(true);
    const held = home.globalJob('v2');
    expect(held?.status).toBe('error');

    const second = await home.exec('second session');
    expect(second.code).toBe(0);
    // The first session becomes an idle interactive one; the second an Atlas session, which Codex never extracts.
    home.makeEligible(first.threadId!);
    home.setThread(second.threadId!, { idleSeconds: 7000, source: ATLAS });

    // Phase 1 gets an answer that is not the JSON it asked for: the extraction fails and Codex backs off.
    provider.hooks.phase1 = () => ({}) as Phase1Answer;
    const phase1Before = provider.of('phase1').length;
    const third = await home.exec('third session', {
      holdUntil: async () => {
        await waitFor('the extraction to fail', () => (stage1Job(home, first.threadId!)?.status === 'error' ? true : undefined));
      },
    });
    expect(third.code).toBe(0);
    const tried = provider.of('phase1').slice(phase1Before);
    expect(tried.map(requestText).join('\n')).not.toContain(second.threadId!);
    const failed = stage1Job(home, first.threadId!)!;
    expect(failed.retry_at ?? 0, 'Codex backs off before trying again').toBeGreaterThan(nowSec());

    // The ledger says what Codex's tables say.
    const report = await cli<CoverageJson>(['coverage']);
    expect(report.code, report.stderr).toBe(0);
    const sql = stagesBySql(home);
    expect(report.json.totals.failed).toBe(sql.failed);
    expect(report.json.totals.extracted).toBe(sql.extracted);
    expect(report.json.totals.selected).toBe(sql.selected);
    expect(report.json.notEligible.source).toBe(sql.notInteractive);
    const a = report.json.threads.find((t) => t.threadId === first.threadId);
    expect(a).toMatchObject({ stage: 'failed', repairs: ['retry'], job: { status: 'error', retryState: 'backoff' } });
    expect(a?.job?.lastError).toBeTruthy();
    expect(report.json.threads.find((t) => t.threadId === second.threadId)).toMatchObject({
      stage: 'not-eligible',
      reason: 'source',
      sourceLabel: 'Atlas',
    });
    expect(report.json.consolidation).toMatchObject({ state: 'backoff', reclaimable: true });

    // The consolidation job, backing off, reclaimed through a reviewed proposal: Codex runs phase 2 at its next start,
    // and (the control) still leaves the failed extraction alone, as its back-off says.
    const reclaim = await cli<ProposalJson>(['coverage', '--reclaim']);
    expect(reclaim.code, reclaim.stderr).toBe(0);
    expect(reclaim.json.dbChanges[0]?.description).toMatch(/status "error" → "pending"/);
    await applyAll(reclaim.json);
    expect(home.globalJob('v2')).toMatchObject({ status: 'pending', lease_until: null });
    provider.hooks.phase1 = undefined;
    const phase1Held = provider.of('phase1').length;
    since = nowSec();
    const fourth = await home.exec('fourth session', { holdUntil: home.phase2Finished('v2', since) });
    expect(fourth.code).toBe(0);
    expect(home.globalJob('v2')?.finished_at ?? 0, 'Codex ran the reclaimed consolidation').toBeGreaterThanOrEqual(since);
    expect(provider.of('phase1').length, 'without a retry Codex does not extract the failed session').toBe(phase1Held);

    // The retry, reviewed and applied: Codex claims the job at its next start and extracts the session.
    const retry = await cli<ProposalJson>(['coverage', '--retry', first.threadId!]);
    expect(retry.code, retry.stderr).toBe(0);
    expect(retry.json.dbChanges).toEqual([expect.objectContaining({ db: 'memories_v2', sqlKind: 'repair.set-job' })]);
    expect(retry.json.dbChanges[0]?.description).toMatch(/retry_at .+ → none/);
    await applyAll(retry.json);
    expect(stage1Job(home, first.threadId!)).toMatchObject({ status: 'error', retry_at: null, retry_remaining: 3 });
    const fifth = await home.exec('fifth session', {
      holdUntil: async () => {
        await waitFor('the retried session to be extracted', () => (outputIds(home).includes(first.threadId!) ? true : undefined));
      },
    });
    expect(fifth.code).toBe(0);
    expect(provider.of('phase1').length - phase1Held, 'Codex extracted the retried session').toBe(1);
    expect(outputIds(home)).toEqual([first.threadId!]);

    const after = await cli<CoverageJson>(['coverage']);
    const stage = after.json.threads.find((t) => t.threadId === first.threadId)?.stage;
    expect(['extracted', 'selected']).toContain(stage);
    expect(after.json.totals.failed).toBe(stagesBySql(home).failed);
  } finally {
    provider.hooks.phase1 = undefined;
    provider.hooks.phase2Command = undefined;
    await home.remove();
  }
});

it('after codex debug clear-memories the empty root is explained, and the ledger shows what Codex will extract again', async () => {
  const { home, extracted } = await consolidatedHome(provider, 'default');
  try {
    const cleared = await runCodex(['debug', 'clear-memories'], { cwd: home.work, env: home.env() });
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(home.read(home.memoryDbPath('v2'), (db) => db.prepare('SELECT COUNT(*) AS n FROM stage1_outputs').get())).toEqual({ n: 0 });

    const lint = await studio<
      Array<{ version: string; counts: { error: number }; files: Array<{ diagnostics: Array<{ rule: string }> }> }>
    >(['lint', '--codex-home', home.codexHome]);
    const v2 = lint.json.find((r) => r.version === 'v2');
    expect(v2?.counts.error, 'an emptied root is not an error').toBe(0);
    expect(v2?.files.flatMap((f) => f.diagnostics.map((d) => d.rule))).toEqual(['codex/empty-root']);
    const inspect = await studio(['inspect', '--codex-home', home.codexHome]);
    expect(inspect.code, inspect.stderr).toBe(0);

    const report = await studio<CoverageJson>(['coverage', '--codex-home', home.codexHome]);
    expect(report.code, report.stderr).toBe(0);
    expect((report.json.totals.extracted ?? NaN) + (report.json.totals.selected ?? NaN)).toBe(0);
    // The session Codex had extracted keeps memory_mode = 'enabled': it is waiting to be extracted again.
    expect(report.json.threads.find((t) => t.threadId === extracted)?.stage).toBe('waiting');
    expect(report.json.consolidation.state).toBe('absent');
  } finally {
    await home.remove();
  }
});
