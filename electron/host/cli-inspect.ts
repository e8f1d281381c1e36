// The inspect family of CLI commands (parse, inspect, lint, budget): the same core as the app, over the home's index.
import { parseArgs } from 'node:util';
import type { BudgetReport } from '../../shared/budget';
import type { LintReport } from '../../shared/lint';
import type { HomeInfo } from '../../shared/domain';
import type { HealthReport } from '../../shared/health';
import { budgetWithCounts, budgetWithIndex, lintWithIndex, rolloutCountsWithIndex, rootOf } from '../core/index-store/inspect';
import { runTask } from '../core/workers/pool';
import { keptHealth } from '../core/codex-db/health-memo';
import { healthCache } from '../core/index-store/health-cache';
import { CliUsageError } from './cli-errors';
import { openCliIndex, parseVersion, versionsOf, type CliIndex } from './cli-index';
import { buildOverview, printOverview, serviceSource, type OverviewSource } from './cli-overview';

export { CliUsageError } from './cli-errors';

const homeOptions = {
  'codex-home': { type: 'string' },
  'data-dir': { type: 'string' },
  version: { type: 'string' },
  json: { type: 'boolean' },
} as const;


/**
 * The overview's answers for one command: from the index, or (the index off, said on stderr) from the app's
 * channels reading the files directly. Health always runs on a worker meanwhile.
 */
async function sourceFor(cli: CliIndex, values: { 'codex-home'?: string; 'data-dir'?: string }, health: Promise<HealthReport> | null): Promise<{ source: OverviewSource; close(): void }> {
  const indexed = cli.indexed;
  if (!indexed) {
    const service = (await import('./cli-service.js')).openService(values);
    return { source: await serviceSource(service), close: () => service.dispose() };
  }
  const source: OverviewSource = {
    home: cli.home,
    list: async (version) => rootOf(indexed, version).list,
    lint: (version) => lintWithIndex(indexed, version),
    budget: (version) => budgetWithIndex(indexed, version),
    rollouts: (version) => rolloutCountsWithIndex(indexed, version),
    health: () => health ?? runTask('health', { home: cli.home }),
  };
  return { source, close: () => undefined };
}

/** Runs `fn` with the overview's sources for this command's home, closing everything after. */
async function withSource<T>(values: { 'codex-home'?: string; 'data-dir'?: string }, fn: (source: OverviewSource, cli: CliIndex) => Promise<T>, withHealth = false): Promise<T> {
  let health: Promise<HealthReport> | null = null;
  // Health: kept in the index while Codex's DBs and the clock window are unchanged; otherwise read on a worker (a few
  // hundred milliseconds of Codex's DBs) while this thread walks the roots.
  const beforeRefresh = (home: HomeInfo, cachePath: string) => {
    if (!withHealth) return;
    const kept = keptHealth(home, healthCache(cachePath));
    health = kept ? Promise.resolve(kept) : runTask('health', { home, cachePath });
    health.catch(() => undefined);
  };
  const cli = await openCliIndex(values, { beforeRefresh });
  try {
    const { source, close } = await sourceFor(cli, values, cli.indexed ? health : null);
    try {
      return await fn(source, cli);
    } finally {
      close();
    }
  } finally {
    cli.close();
  }
}

export async function lintCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: homeOptions });
  const asked = parseVersion(values.version);
  const reports: LintReport[] = await withSource(values, async (source) => {
    const out: LintReport[] = [];
    for (const version of versionsOf(source.home, asked)) out.push(await source.lint(version));
    return out;
  });
  if (values.json) console.log(JSON.stringify(reports, null, 2));
  else {
    for (const report of reports) {
      console.log(`${report.version}: ${report.counts.error} errors, ${report.counts.warning} warnings, ${report.counts.info} notes in ${report.scannedFiles} files`);
      for (const file of report.files) for (const d of file.diagnostics) console.log(`  ${file.path}:${d.line}  ${d.severity}  ${d.rule}  ${d.message}`);
    }
  }
  return reports.some((r) => r.counts.error > 0) ? 1 : 0;
}

function printBudget(r: BudgetReport, text: boolean): void {
  console.log(`${r.version}: memory_summary.md is ${r.trimmedBytes} bytes = ${r.estimatedTokens} tokens by Codex's estimate (${r.o200kTokens} o200k tokens); limit ${r.limitTokens} (${r.limitSource}).`);
  if (!r.summaryExists) console.log('  no memory_summary.md: Codex injects nothing.');
  else if (r.removed) console.log(`  truncated: the next session does not see lines ${r.removed.startLine}–${r.removed.endLine} (bytes ${r.removed.startByte}–${r.removed.endByte}); marker ${r.markerText}`);
  else console.log('  kept whole: the next session sees all of it.');
  if (text) console.log(`\n${r.injectedText}\n`);
}

export async function budgetCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...homeOptions, limit: { type: 'string' }, text: { type: 'boolean' } } });
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new CliUsageError(`--limit must be a positive whole number of tokens, not "${values.limit}".`);
  const asked = parseVersion(values.version);
  const cli = await openCliIndex(values, { parts: 'none' });
  try {
    const reports: BudgetReport[] = [];
    for (const version of versionsOf(cli.home, asked)) {
      const root = cli.home.roots.find((r) => r.version === version)?.path as string;
      reports.push(cli.db ? await budgetWithCounts(cli.db, root, version, limit) : await runTask('budget', { root, version, limitTokens: limit }));
    }
    if (values.json) console.log(JSON.stringify(reports, null, 2));
    else for (const r of reports) printBudget(r, values.text === true);
    return 0;
  } finally {
    cli.close();
  }
}

export async function inspectCommand(argv: string[]): Promise<number> {
  const started = performance.now();
  const { values } = parseArgs({ args: argv, options: homeOptions });
  const asked = parseVersion(values.version);
  const overview = await withSource(values, (source) => buildOverview(source, versionsOf(source.home, asked), started), true);
  if (values.json) console.log(JSON.stringify(overview, null, 2));
  else printOverview(overview);
  return 0;
}
