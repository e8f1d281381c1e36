// `memory-studio coverage`: every session Codex knows and how far its memory pipeline took it (the coverage ledger).
import { parseArgs } from 'node:util';
import type { CoverageReport, CoverageThread } from '../../shared/coverage';
import { CoverageReasonSchema, CoverageStageSchema } from '../../shared/coverage';
import { CliUsageError, HOME_HINT, requireFolder } from './cli-errors';
import { parseVersion } from './cli-index';
import { cliCodexHome, cliEnv } from './cli-io';
import { proposalFlags, followUp, type RunFlags, withCliPrefix } from './cli-follow-up';
import { printJson, reportingFailures } from './cli-output';
import { withService } from './cli-review';
import type { MemoryVersion } from '../../shared/domain';

const options = {
  'codex-home': { type: 'string' },
  'data-dir': { type: 'string' },
  version: { type: 'string' },
  since: { type: 'string' },
  json: { type: 'boolean' },
  // Repairs, proposed for review (nothing is written until the proposal is applied): they run instead of the report.
  retry: { type: 'string' },
  reclaim: { type: 'boolean' },
} as const;

/** How many sessions each list prints (every one is in --json). */
const LISTED = 20;

const STAGE_WORDS: Record<string, string> = {
  'not-eligible': 'not eligible',
  waiting: 'waiting',
  extracting: 'extracting',
  failed: 'failed',
  exhausted: 'exhausted',
  extracted: 'extracted',
  selected: 'selected for phase 2',
};

const REASON_WORDS: Record<string, string> = {
  source: 'not interactive (or no user message)',
  'memory-disabled': 'memory disabled',
  polluted: 'polluted',
  archived: 'archived',
  'too-recent': 'too recent',
  'too-old': 'too old',
  'no-time': 'no time',
};

function sinceDays(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > 36_500)
    throw new CliUsageError(`--since must be a whole number of days from 1 to 36500, not "${value}".`);
  return days;
}

const n = (count: number) => count.toLocaleString('en-US');
const utc = (seconds: number) => `${new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const short = (id: string) => (id.length > 13 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id);
const firstLine = (text: string | null) => {
  const line = (text ?? '').split('\n')[0]?.trim() ?? '';
  return line.length > 100 ? `${line.slice(0, 97)}…` : line;
};

/** When Codex tries a failed session again: after a time, at a session start, or never (and why). */
function retryWhen(t: CoverageThread): string {
  if (t.stage === 'exhausted') return 'Codex never retries: no retries left';
  if (t.reason) return `Codex never retries: ${REASON_WORDS[t.reason] ?? t.reason}`;
  const job = t.job;
  const left = job?.retryRemaining;
  const tries = left != null ? ` (${left} ${left === 1 ? 'try' : 'tries'} left)` : '';
  switch (job?.retryState) {
    case 'backoff':
      return `Codex retries after ${utc(job.retryAt?.seconds ?? 0)}${tries}`;
    case 'new-input':
      return 'Codex retries at a session start (the session changed: retries reset)';
    case 'lease-expired':
      return `Codex retries at a session start: its worker vanished${tries}`;
    default:
      return `Codex retries at a session start${tries}`;
  }
}

function sessionLine(t: CoverageThread, tail: string): string {
  return `  ${short(t.threadId)}  ${t.cwd ?? '(no cwd)'}  ${tail}`;
}

function printList(title: string, threads: readonly CoverageThread[], line: (t: CoverageThread) => string): void {
  if (threads.length === 0) return;
  console.log(`\n${title} (${n(threads.length)}):`);
  for (const t of threads.slice(0, LISTED)) console.log(line(t));
  if (threads.length > LISTED) console.log(`  … and ${n(threads.length - LISTED)} more (--json lists every session).`);
}

function printHeader(report: CoverageReport, codexHome: string): void {
  const w = report.window;
  const since = report.sinceDays === null ? '' : ` (sessions active in the last ${report.sinceDays} days)`;
  console.log(`Coverage of ${report.version} memories in ${codexHome}${since}, ${utc(report.generatedAt.seconds)}`);
  console.log(
    `Phase 1 window: sessions idle for ${w.minRolloutIdleHours} h or more and active within the last ${w.maxRolloutAgeDays} days; ${w.maxRolloutsPerStartup} claimed per session start.`,
  );
  const total = Object.values(report.totals).reduce((a, b) => a + b, 0);
  const stages = CoverageStageSchema.options.map((s) => `${n(report.totals[s])} ${STAGE_WORDS[s]}`);
  console.log(`${n(total)} sessions: ${stages.join(', ')}.`);
  const reasons = CoverageReasonSchema.options.filter((r) => report.notEligible[r] > 0);
  if (reasons.length > 0) console.log(`Not eligible: ${reasons.map((r) => `${n(report.notEligible[r])} ${REASON_WORDS[r]}`).join(', ')}.`);
}

function printSessions(report: CoverageReport): void {
  const failed = report.threads.filter((t) => t.stage === 'failed');
  const exhausted = report.threads.filter((t) => t.stage === 'exhausted');
  const failure = (t: CoverageThread) => {
    const error = firstLine(t.job?.lastError ?? null);
    return sessionLine(t, `${error ? `"${error}"` : '(no error recorded)'}  ${retryWhen(t)}`);
  };
  printList('Failed extractions', failed, failure);
  printList('Exhausted extractions', exhausted, failure);
  const byId = new Map(report.threads.map((t) => [t.threadId, t]));
  const aging = report.agingOut.flatMap((id) => byId.get(id) ?? []);
  printList('Aging out within 7 days, soonest first', aging, (t) =>
    sessionLine(t, `${t.stage}, its window closes ${utc(t.agesOutAt?.seconds ?? 0)}`),
  );
  const c = report.consolidation;
  console.log(`\nConsolidation: ${c.state}${c.status ? ` (status "${c.status}")` : ''}. ${c.detail}`);
  if (report.problems.length > 0) {
    console.log('\nProblems:');
    for (const p of report.problems) console.log(`  ${p.message} ${withCliPrefix(p.hint)}`);
  }
}

/** Commands to paste: the repairs the ledger offers, with the same home and version. */
function printNextSteps(report: CoverageReport, run: RunFlags): void {
  const steps: string[] = [];
  const retry = report.threads.filter((t) => t.repairs.includes('retry'));
  for (const t of retry.slice(0, 5))
    steps.push(`${followUp(['coverage', '--retry', t.threadId], run)}    # propose letting Codex extract ${short(t.threadId)} again`);
  if (retry.length > 5) steps.push(`# … ${n(retry.length - 5)} more sessions can be retried (their ids: --json, repairs: ["retry"])`);
  if (report.consolidation.reclaimable)
    steps.push(`${followUp(['coverage', '--reclaim'], run)}    # propose letting Codex consolidate at its next session start`);
  if (report.totals.waiting > 0 || steps.length > 0)
    steps.push(`# a proposal changes nothing until you apply it: ${followUp(['apply', 'ID', '--accept', 'all'], proposalFlags(run))}`);
  if (steps.length === 0) return;
  console.log('\nNext steps:');
  for (const s of steps) console.log(`  ${s}`);
}

/** `coverage --retry THREAD_ID` / `coverage --reclaim`: the repair as a proposal (its id, and each DB change before → after). */
async function proposeRepair(
  values: { 'codex-home'?: string; 'data-dir'?: string; json?: boolean; retry?: string },
  version: MemoryVersion | undefined,
): Promise<number> {
  return reportingFailures(values.json, () =>
    withService(values, async (s) => {
      const proposal =
        values.retry !== undefined
          ? await s.call('coverage.retry', { threadId: values.retry, ...(version ? { version } : {}) })
          : await s.call('coverage.reclaim', version ? { version } : {});
      if (values.json) {
        printJson(proposal);
        return 0;
      }
      console.log(`${proposal.id}  ${proposal.title}`);
      for (const c of proposal.dbChanges) console.log(`  db ${c.db}: ${c.description}`);
      console.log(`\nNothing is changed until you apply it: ${followUp(['apply', proposal.id, '--accept', 'all'], proposalFlags(values))}`);
      return 0;
    }),
  );
}

/**
 * `coverage [--codex-home DIR] [--version v1|v2] [--since DAYS] [--json]`: exit 0 with the report (DB problems in it).
 * `--retry THREAD_ID` or `--reclaim` propose a repair instead.
 */
export async function coverageCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options, allowPositionals: true });
  if (positionals.length > 0) throw new CliUsageError(`Unexpected argument "${positionals[0]}".`);
  const version = parseVersion(values.version);
  if (values.retry !== undefined || values.reclaim) {
    if (values.retry !== undefined && values.reclaim) throw new CliUsageError('Give --retry THREAD_ID or --reclaim, not both.');
    if (values.since !== undefined) throw new CliUsageError('--since filters the report; a repair takes no --since.');
    if (values.retry === '') throw new CliUsageError('--retry needs the id of the session (its UUID, as coverage lists it).');
    return proposeRepair(values, version);
  }
  const since = sinceDays(values.since);
  return reportingFailures(values.json, async () => {
    const choice = cliCodexHome(values['codex-home']);
    requireFolder(choice.codexHome, HOME_HINT);
    const { coverageForCommand } = await import('../core/service/use-cases/coverage.js');
    const { home, report } = await coverageForCommand(choice, { version, sinceDays: since }, cliEnv());
    if (values.json) {
      printJson(report);
      return 0;
    }
    printHeader(report, home.codexHome);
    printSessions(report);
    printNextSteps(report, { ...values, version });
    return 0;
  });
}
