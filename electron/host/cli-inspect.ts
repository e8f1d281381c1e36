// The inspect family of CLI commands (parse, inspect, lint, budget): the same core and channels as the app.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { budgetHeadline, type BudgetReport } from '../../shared/budget';
import type { MemoryVersion, RootInfo } from '../../shared/domain';
import { maskedInjectedText } from '../core/budget/budget';
import { FILES } from '../core/codex-constants';
import { parsedKinds, type ParsedKind } from '../../shared/formats';
import { resolveDataDir } from '../core/data-dir';
import { outlineOf } from '../core/formats';
import { parseMemoryBytes } from '../core/formats/read-file';
import { resolveCodexHome } from '../core/home';
import { scanRootSecrets } from '../core/lint/scan-root';
import { parseSessionRollout } from '../core/sessions';
import { createStudioService, type StudioService } from '../core/service';
import { StudioFailure, toStudioError } from '../core/errors';
import { describeFileType, notRegular, readRegularFile } from '../core/regular-file';
import { decodeUtf8Strict, findInvalidUtf8 } from '../core/utf8';
import { DEFAULT_READ_CAP_BYTES, readMemoryFile } from '../core/workspace';
import { buildOverview, printOverview } from './cli-overview';
import { packageVersion } from './paths';
import { printJson } from './cli-output';

export class CliUsageError extends Error {}

const homeOptions = {
  'codex-home': { type: 'string' },
  'data-dir': { type: 'string' },
  version: { type: 'string' },
  json: { type: 'boolean' },
} as const;

function parseVersion(value: string | undefined): MemoryVersion | undefined {
  if (value === undefined) return undefined;
  if (value !== 'v1' && value !== 'v2') throw new CliUsageError(`--version must be v1 or v2, not "${value}".`);
  return value;
}

/** A short-lived service for one CLI command: no watcher, the same core and channels as the app. */
export function openService(values: { 'codex-home'?: string; 'data-dir'?: string }): StudioService {
  return createStudioService({
    home: resolveCodexHome({ flag: values['codex-home'] }),
    dataDir: resolveDataDir({ flag: values['data-dir'] }),
    host: 'serve',
    appVersion: packageVersion(),
    watch: false,
  });
}

/** The versions to report on: the one asked for, else every root present. */
async function versionsOf(service: StudioService, asked: MemoryVersion | undefined): Promise<MemoryVersion[]> {
  const home = await service.call('home.get', {});
  const present = home.roots.filter((r) => r.exists).map((r) => r.version);
  if (asked) {
    if (!present.includes(asked)) throw new CliUsageError(`${home.codexHome} has no ${asked} memory folder.`);
    return [asked];
  }
  if (present.length === 0) throw new CliUsageError(`${home.codexHome} has no memory folder (memories/ or memories_v2/).`);
  return present;
}

export async function parseCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { kind: { type: 'string' }, json: { type: 'boolean' } } });
  const file = positionals[0];
  if (!file) throw new CliUsageError('parse needs a file: memory-studio parse FILE [--kind K] [--json]');
  const kind = values.kind as ParsedKind | 'session_rollout' | undefined;
  if (kind !== undefined && kind !== 'session_rollout' && !parsedKinds.includes(kind)) {
    throw new CliUsageError(`--kind must be one of ${[...parsedKinds, 'session_rollout'].join(', ')}.`);
  }
  return reportingFailures(values.json, async () => {
    const path = resolve(file);
    // stat, not open: a FIFO, socket or device is refused before anything waits on it.
    const info = await stat(path).catch((error: unknown) => {
      throw new StudioFailure('NotFound', `${path} cannot be read (${toStudioError(error, path).message}).`, { path, hint: 'Check the path and try again.' });
    });
    if (!info.isFile()) throw notRegular(path, describeFileType(info));
    if (kind === 'session_rollout' || (kind === undefined && path.endsWith('.jsonl'))) return printSession(path, values.json === true);
    return printParsed(path, kind, values.json === true);
  });
}

/** Runs a command; a failure is printed as `{ ok: false, error }` with --json (else as its message and hint), exit 1. */
async function reportingFailures(json: boolean | undefined, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    const failure = toStudioError(error);
    if (json) printJson({ ok: false, error: failure }, false);
    else console.error(`${failure.message}${failure.hint ? ` ${failure.hint}` : ''}`);
    return 1;
  }
}

/** One memory file, refused (not parsed leniently) when it is too big, binary or not UTF-8, as the app refuses it. */
async function printParsed(path: string, kind: ParsedKind | undefined, json: boolean): Promise<number> {
  const tooBig = (size: number) => new StudioFailure('Unsupported', `${path} is ${size} bytes, more than the ${DEFAULT_READ_CAP_BYTES} bytes Memory Studio parses.`, { path });
  const { bytes } = await readRegularFile(path, path, DEFAULT_READ_CAP_BYTES, tooBig);
  if (bytes.includes(0)) throw new StudioFailure('Unsupported', `${path} looks binary (it contains NUL bytes), so it is not parsed.`, { path, hint: 'Memory files are Markdown text.' });
  if (decodeUtf8Strict(bytes) === null) {
    const problem = findInvalidUtf8(bytes);
    throw new StudioFailure('Invalid', `${path} is not valid UTF-8 (first bad byte at offset ${problem?.byteOffset ?? '?'}, line ${problem?.line ?? '?'}).`, {
      path,
      hint: 'Codex writes UTF-8; re-save the file as UTF-8.',
    });
  }
  const parsed = outlineOf(parseMemoryBytes(bytes, { path, kind }));
  if (json) printJson(parsed);
  else {
    console.log(`${path}: ${parsed.kind}, ${parsed.lineCount} lines`);
    for (const d of parsed.diagnostics) console.log(`  ${d.severity.padEnd(7)} line ${d.line}${d.endLine !== d.line ? `-${d.endLine}` : ''}  ${d.rule}  ${d.message}`);
    if (parsed.diagnostics.length === 0) console.log('  no diagnostics');
  }
  return parsed.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}

/** A session rollout (JSONL): thread, cwd, assistant messages and its memory citation blocks, streamed line by line. */
async function printSession(path: string, json: boolean): Promise<number> {
  const session = await parseSessionRollout(path);
  if (json) printJson(session);
  else {
    console.log(`${path}: session_rollout, thread ${session.threadId ?? 'unknown'}, cwd ${session.cwd ?? 'unknown'}, ${session.assistantMessageCount} assistant messages, ${session.citations.length} citation blocks`);
    for (const c of session.citations) for (const e of c.entries) console.log(`  line ${c.line}: cites ${e.path}:${e.lineStart}-${e.lineEnd} (${e.note})`);
    for (const d of session.diagnostics) console.log(`  ${d.severity.padEnd(7)} line ${d.line}  ${d.rule}  ${d.message}`);
  }
  return session.diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}

export async function lintCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: homeOptions });
  return reportingFailures(values.json, async () => {
    const service = openService(values);
    try {
      const reports = [];
      for (const version of await versionsOf(service, parseVersion(values.version))) reports.push(await service.call('inspect.lint', { version }));
      if (values.json) printJson(reports);
      else {
        for (const report of reports) {
          console.log(`${report.version}: ${report.counts.error} errors, ${report.counts.warning} warnings, ${report.counts.info} notes in ${report.scannedFiles} files`);
          for (const file of report.files) for (const d of file.diagnostics) console.log(`  ${file.path}:${d.line}  ${d.severity}  ${d.rule}  ${d.message}`);
        }
      }
      return reports.some((r) => r.counts.error > 0) ? 1 : 0;
    } finally {
      service.dispose();
    }
  });
}

/**
 * A truncated summary's injected text masked from the whole file: the cut can leave the tail of a secret whose start
 * it dropped, and the output masking cannot recognise a tail. The file is read again; if it changed since, the text
 * of the new file is masked the same way (it is output, never written back).
 */
async function maskedInjected(roots: RootInfo[], report: BudgetReport): Promise<string> {
  const root = roots.find((r) => r.version === report.version);
  if (!root) return report.injectedText;
  const file = await readMemoryFile(root.path, report.version, FILES.summary);
  return maskedInjectedText(file.content, { version: report.version, limitTokens: report.limitTokens });
}

export async function budgetCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...homeOptions, limit: { type: 'string' }, text: { type: 'boolean' } } });
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) throw new CliUsageError(`--limit must be a positive whole number of tokens, not "${values.limit}".`);
  return reportingFailures(values.json, async () => {
    const service = openService(values);
    try {
      const reports = [];
      const home = await service.call('home.get', {});
      for (const version of await versionsOf(service, parseVersion(values.version))) {
        const report = await service.call('inspect.budget', { version, limitTokens: limit });
        reports.push(report.truncated ? { ...report, injectedText: await maskedInjected(home.roots, report) } : report);
      }
      if (values.json) printJson(reports);
      else {
        for (const r of reports) {
          // The app's budget bar says the same two lines.
          const { headline, detail } = budgetHeadline(r);
          console.log(`${r.version}: ${headline}${r.summaryExists ? ` (limit ${r.limitSource})` : ''}.`);
          if (detail) console.log(`  ${detail}`);
          if (values.text) console.log(`\n${r.injectedText}\n`);
        }
      }
      return 0;
    } finally {
      service.dispose();
    }
  });
}

export async function inspectCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: homeOptions });
  return reportingFailures(values.json, async () => {
    const service = openService(values);
    try {
      const overview = await buildOverview(service, await versionsOf(service, parseVersion(values.version)));
      if (values.json) printJson(overview);
      else printOverview(overview);
      return 0;
    } finally {
      service.dispose();
    }
  });
}

/** `secrets`: the secret engine over every Markdown file of each root (what lint reports as secrets/*), masked. */
export async function secretsCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: homeOptions });
  return reportingFailures(values.json, async () => {
    const service = openService(values);
    try {
      const home = await service.call('home.get', {});
      const scans = [];
      for (const version of await versionsOf(service, parseVersion(values.version))) {
        scans.push(await scanRootSecrets(home.roots.find((r) => r.version === version)?.path as string, version));
      }
      if (values.json) printJson(scans);
      else {
        for (const scan of scans) {
          console.log(`${scan.version}: ${scan.findings.length} possible secret(s) in ${scan.scannedFiles} files (${scan.root})`);
          for (const f of scan.findings) console.log(`  ${f.path}:${f.line}:${f.column}  ${f.severity}  ${f.rule}  ${f.preview}`);
          for (const u of scan.unreadable) console.log(`  ${u.path}: not scanned: ${u.reason}`);
        }
      }
      return scans.some((s) => s.findings.length > 0) ? 1 : 0;
    } finally {
      service.dispose();
    }
  });
}
