// `memory-studio coverage` in process (the same main() bin.cjs runs): the human report, --json, --since, exit codes.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../../electron/host/cli';
import { CoverageReportSchema } from '../../../shared/coverage';
import { ids, scenario } from './scenario';
import { DAY, makeWorld, nonZero, totalsBySql, type World } from './world';

// The command reads the clock itself: the home is laid out around the real now, its situations hours from any edge.
const NOW = Math.floor(Date.now() / 1000);
let world: World;
beforeAll(async () => {
  world = await makeWorld({
    ...scenario(NOW),
    jobs: [
      ...(scenario(NOW).jobs ?? []),
      {
        kind: 'memory_consolidate_global',
        key: 'global',
        status: 'error',
        finishedAt: NOW - 600,
        retryAt: NOW + 3000,
        lastError: 'failed_agent',
      },
    ],
  });
});
afterAll(() => world.cleanup());
afterEach(() => vi.restoreAllMocks());

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    return { code: await main(args), out: out.join('\n'), err: err.join('\n') };
  } finally {
    vi.restoreAllMocks();
  }
}

describe('memory-studio coverage', () => {
  it('--json prints the report, with the totals direct SQL gives', async () => {
    const { code, out } = await run(['coverage', '--codex-home', world.home.codexHome, '--json']);
    expect(code).toBe(0);
    const report = CoverageReportSchema.parse(JSON.parse(out));
    expect(report.version).toBe('v2');
    const sql = totalsBySql(world.stateDb, world.memoryDb, report.generatedAt.seconds, { maxAgeDays: 10, idleHours: 6 });
    expect(nonZero(report.totals)).toEqual(sql.totals);
    expect(nonZero(report.notEligible)).toEqual(sql.notEligible);
    expect(report.consolidation).toMatchObject({ state: 'backoff', reclaimable: true });
  });

  it('prints the window, totals, reasons, failures with when Codex retries, aging out, the consolidation and next steps', async () => {
    const { code, out } = await run(['coverage', '--codex-home', world.home.codexHome]);
    expect(code).toBe(0);
    expect(out).toContain(`Coverage of v2 memories in ${world.home.codexHome}`);
    expect(out).toMatch(/Phase 1 window: sessions idle for 6 h or more and active within the last 10 days; 2 claimed per session start\./);
    expect(out).toMatch(
      /26 sessions: 11 not eligible, 3 waiting, 1 extracting, 5 failed, 2 exhausted, 3 extracted, 1 selected for phase 2\./,
    );
    expect(out).toMatch(
      /Not eligible: 5 not interactive \(or no user message\), 1 memory disabled, 1 polluted, 1 archived, 1 too recent, 1 too old, 1 no time\./,
    );
    const short = (id: string) => `${id.slice(0, 8)}…${id.slice(-4)}`;
    expect(out).toMatch(/Failed extractions \(5\):/);
    expect(out).toContain(
      `${short(ids.failedBackoff)}  /home/dana/src/invoice-svc  "stage-1 output was not valid JSON"  Codex retries after `,
    );
    expect(out).toContain(
      `${short(ids.failedTooOld)}  /home/dana/src/app  "stage-1 sampling failed: stream disconnected"  Codex never retries: too old`,
    );
    expect(out).toContain(
      `${short(ids.exhausted)}  /home/dana/src/app  "stage-1 model output exceeded the context window"  Codex never retries: no retries left`,
    );
    expect(out).toMatch(/Aging out within 7 days, soonest first \(3\):/);
    expect(out.indexOf(short(ids.waitingOld))).toBeLessThan(out.indexOf(short(ids.failedDue), out.indexOf('Aging out')));
    expect(out).toMatch(/Consolidation: backoff \(status "error"\)\. The last consolidation failed \("failed_agent"\)/);
    expect(out).toContain(`memory-studio coverage --retry ${ids.failedBackoff} --codex-home ${world.home.codexHome}`);
    expect(out).toContain(`memory-studio coverage --retry ${ids.exhausted} --codex-home ${world.home.codexHome}`);
    expect(out).toContain(`memory-studio coverage --reclaim --codex-home ${world.home.codexHome}`);
  });

  it('--since narrows the sessions listed; --version reads another version', async () => {
    const since = await run(['coverage', '--codex-home', world.home.codexHome, '--since', '3', '--json']);
    const report = CoverageReportSchema.parse(JSON.parse(since.out));
    expect(report.sinceDays).toBe(3);
    expect(report.threads.every((t) => (t.updatedAt?.seconds ?? 0) >= report.generatedAt.seconds - 3 * DAY)).toBe(true);
    const human = await run(['coverage', '--codex-home', world.home.codexHome, '--version', 'v1', '--since', '3']);
    expect(human.code).toBe(0);
    expect(human.out).toMatch(/Coverage of v1 memories in .* \(sessions active in the last 3 days\)/);
    expect(human.out).toMatch(/Consolidation: absent\. Codex has no v1 consolidation job yet/);
  });

  it('exit 2 for bad flags, 1 for a home that does not exist (JSON with --json)', async () => {
    for (const args of [['--since', '0'], ['--since', 'soon'], ['--version', 'v3'], ['extra']]) {
      const bad = await run(['coverage', '--codex-home', world.home.codexHome, ...args]);
      expect(bad.code, args.join(' ')).toBe(2);
    }
    const gone = join(world.dir, 'gone');
    const missing = await run(['coverage', '--codex-home', gone]);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain(`${gone} does not exist.`);
    const json = await run(['coverage', '--codex-home', gone, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ ok: false, error: { kind: 'NotFound' } });
  });
});
