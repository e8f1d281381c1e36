// The inspect family of CLI commands (inspect, lint, budget, secrets): the same core as the app, over the home's index.
import { parseArgs } from 'node:util';
import type { BudgetReport } from '../../shared/budget';
import { budgetHeadline } from '../../shared/budget-text';
import type { LintReport } from '../../shared/lint';
import type { HomeInfo } from '../../shared/domain';
import type { HealthReport } from '../../shared/health';
import { budgetForCommand, DEFAULT_READ_CAP_BYTES, editorCapNote, indexedOverview, startHealth } from '../core/service/use-cases/overview';
import { CliUsageError } from './cli-errors';
import { openCliIndex, parseVersion, versionsOf, type CliIndex } from './cli-index';
import { printJson, reportingFailures } from './cli-output';
import { buildOverview, printOverview, serviceSource, type OverviewSource } from './cli-overview';
import { cliCodexHome, cliDataDir, writeStderr } from './cli-io';

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
async function sourceFor(
  cli: CliIndex,
  values: { 'codex-home'?: string; 'data-dir'?: string },
  health: Promise<HealthReport> | null,
): Promise<{ source: OverviewSource; close(): void }> {
  const indexed = cli.indexed;
  if (!indexed) {
    const service = (await import('./cli-service.js')).openService(values);
    return { source: await serviceSource(service), close: () => service.dispose() };
  }
  const source: OverviewSource = { home: cli.home, ...indexedOverview(indexed, cli.home, health) };
  return { source, close: () => undefined };
}

/** Runs `fn` with the overview's sources for this command's home, closing everything after. */
async function withSource<T>(
  values: { 'codex-home'?: string; 'data-dir'?: string },
  fn: (source: OverviewSource, cli: CliIndex) => Promise<T>,
  options: { withHealth?: boolean } = {},
): Promise<T> {
  let health: Promise<HealthReport> | null = null;
  // Health starts before the refresh, on a worker unless the index keeps it, while this thread walks the roots.
  const beforeRefresh = (home: HomeInfo, cachePath: string) => {
    if (options.withHealth) health = startHealth(home, cachePath);
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
  return reportingFailures(values.json, async () => {
    const reports: LintReport[] = await withSource(values, async (source) => {
      const out: LintReport[] = [];
      for (const version of versionsOf(source.home, asked)) out.push(await source.lint(version));
      return out;
    });
    if (values.json) printJson(reports);
    else {
      for (const report of reports) {
        console.log(
          `${report.version}: ${report.counts.error} errors, ${report.counts.warning} warnings, ${report.counts.info} notes in ${report.scannedFiles} Markdown files`,
        );
        for (const file of report.files)
          for (const d of file.diagnostics) console.log(`  ${file.path}:${d.line}  ${d.severity}  ${d.rule}  ${d.message}`);
      }
    }
    return reports.some((r) => r.counts.error > 0) ? 1 : 0;
  });
}

export async function budgetCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...homeOptions, limit: { type: 'string' }, text: { type: 'boolean' } } });
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1))
    throw new CliUsageError(`--limit must be a positive whole number of tokens, not "${values.limit}".`);
  const asked = parseVersion(values.version);
  return reportingFailures(values.json, async () => {
    const cli = await openCliIndex(values, { parts: 'none' });
    try {
      const reports: BudgetReport[] = [];
      for (const version of versionsOf(cli.home, asked)) {
        const root = cli.home.roots.find((r) => r.version === version)?.path as string;
        reports.push(await budgetForCommand(cli.db, root, version, limit));
      }
      if (values.json) printJson(reports);
      else {
        for (const r of reports) {
          // The app's budget bar says the same two lines.
          const { headline, detail } = budgetHeadline(r);
          console.log(`${r.version}: ${headline}${r.summaryExists ? ` (limit ${r.limitSource})` : ''}.`);
          if (detail) console.log(`  ${detail}`);
          if (r.summaryBytes > DEFAULT_READ_CAP_BYTES) console.log(`  ${editorCapNote(r.summaryBytes)}`);
          if (values.text) console.log(`\n${r.injectedText}\n`);
        }
      }
      return 0;
    } finally {
      cli.close();
    }
  });
}

export async function inspectCommand(argv: string[]): Promise<number> {
  const started = performance.now();
  const { values } = parseArgs({ args: argv, options: homeOptions });
  const asked = parseVersion(values.version);
  return reportingFailures(values.json, async () => {
    const overview = await withSource(values, (source) => buildOverview(source, versionsOf(source.home, asked), started), {
      withHealth: true,
    });
    if (values.json) printJson(overview);
    else printOverview(overview);
    return 0;
  });
}

/** `secrets`: the secret engine over every Markdown file of each root (what lint reports as secrets/*), masked. */
export async function secretsCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: homeOptions });
  const asked = parseVersion(values.version);
  return reportingFailures(values.json, async () => {
    const [{ openCommandHome }, { scanHomeSecrets }] = await Promise.all([
      import('../core/service/use-cases/command-home.js'),
      import('../core/service/use-cases/secrets.js'),
    ]);
    const dataDir = cliDataDir(values['data-dir']);
    const home = await openCommandHome(cliCodexHome(values['codex-home']), dataDir, (line) => writeStderr(`${line}\n`));
    const scans = await scanHomeSecrets(home, versionsOf(home, asked));
    if (values.json) printJson(scans);
    else {
      for (const scan of scans) {
        console.log(`${scan.version}: ${scan.findings.length} possible secret(s) in ${scan.scannedFiles} files (${scan.root})`);
        for (const f of scan.findings) console.log(`  ${f.path}:${f.line}:${f.column}  ${f.severity}  ${f.rule}  ${f.preview}`);
        for (const u of scan.unreadable) console.log(`  ${u.path}: not scanned: ${u.reason}`);
      }
    }
    return scans.some((s) => s.findings.length > 0) ? 1 : 0;
  });
}
