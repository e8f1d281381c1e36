// The host commands of the CLI: start (Electron, or the browser fallback), serve, demo-home.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { checkDataDirPlacement } from '../core/service/data-dir-check';
import { toStudioError } from '../core/platform/errors';
import type { HomeChoice } from '../core/service/use-cases/locate';
import { ensureDemoHome, generateDemoHome } from '../core/service/use-cases/demo-home';
import { createStudioService } from '../core/service/service';
import { shutdownWorkerPool } from '../core/service/use-cases/runtime';
import { CliUsageError as UsageError, requireFolder } from './cli-errors';
import { applyEngineFlags, engineFlagOptions, type EngineFlags } from './cli-engine-flags';
import { applyEmbeddingFlags, embeddingFlagOptions, type EmbeddingFlags } from './cli-embedding-flags';
import { printUnmasked } from './cli-output';
import { runElectron } from './electron-launch';
import { nodeLauncher, packageVersion, rendererDir } from './paths';
import { startServeHost } from './serve';
import { startAppKeeper } from './keeper-app';
import { followLauncher, noteLauncher } from './launcher-watch';
import { onStopSignals, raiseAgain, STOP_WORKER_GRACE_MS, type StopSignals } from './stop-signals';
import { cliCodexHome, cliDataDir, cliEnv, cliPath, stderrIsTTY, writeStderr } from './cli-io';
import { followUp } from './cli-follow-up';

export const commonOptions = {
  ...engineFlagOptions,
  ...embeddingFlagOptions,
  'codex-home': { type: 'string' },
  'data-dir': { type: 'string' },
  port: { type: 'string' },
  demo: { type: 'boolean' },
  serve: { type: 'boolean' },
  'import-source': { type: 'string', multiple: true },
} as const;

export function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be a number from 0 to 65535, not "${value}".`);
  return port;
}

type HostValues = EngineFlags &
  EmbeddingFlags & {
    'codex-home'?: string;
    'data-dir'?: string;
    port?: string;
    demo?: boolean;
    serve?: boolean;
    'import-source'?: string[];
  };

/** `--import-source DIR`: folders (and what is inside them) a page may import from, named by the person at the start. */
function importSources(values: HostValues): string[] {
  return (values['import-source'] ?? []).map((dir) => {
    if (!existsSync(cliPath(dir))) throw new UsageError(`--import-source ${dir} does not exist.`);
    return cliPath(dir);
  });
}

/** The home to open: the demo (generated on first use) with --demo, else --codex-home / CODEX_HOME / ~/.codex. */
async function chooseHome(values: HostValues): Promise<HomeChoice> {
  // Before anything is written to the data folder (the demo home, engine flags): never inside a Codex memory folder.
  checkDataDirPlacement(cliDataDir(values['data-dir']), cliCodexHome(values['codex-home']).codexHome);
  if (!values.demo) return cliCodexHome(values['codex-home']);
  console.log('Opening the demo Codex home (generated on first use) ...');
  return ensureDemoHome(cliDataDir(values['data-dir']));
}

/**
 * A home the person named (a flag, CODEX_HOME) that is not there is a typo, not a new home: said, nothing started. The
 * default ~/.codex may not exist yet (the app then offers the demo). After the flags' own checks (exit 2 comes first).
 */
function requireNamedHome(home: HomeChoice): void {
  if (home.source !== 'flag' && home.source !== 'env') return;
  const named = home.source === 'env' ? ' (CODEX_HOME names this one)' : '';
  requireFolder(home.codexHome, `Pass --codex-home the folder Codex keeps config.toml and memories/ in${named}, or --demo.`);
}

/** What the person ran: `npm start` and `npm run serve` run this CLI through npm, which names its script. */
function startedBy(via: 'start' | 'serve'): string {
  const script = cliEnv().npm_lifecycle_event;
  if (script === 'start') return 'npm start';
  if (script === 'serve') return 'npm run serve';
  return `memory-studio ${via}`;
}

export async function serve(values: HostValues, chosen?: HomeChoice, via: 'start' | 'serve' = 'serve'): Promise<number> {
  noteLauncher(); // before anything slow: the npm that ran us, to stop with it (launcher-watch.ts)
  if (!existsSync(join(rendererDir, 'index.html'))) {
    console.error(`The UI is not built (${rendererDir} is missing). Run "npm run build" first.`);
    return 1;
  }
  const dataDir = cliDataDir(values['data-dir']);
  const home = chosen ?? (await chooseHome(values));
  checkDataDirPlacement(dataDir, home.codexHome);
  for (const line of await engineFlags(dataDir, values)) console.log(line);
  for (const line of await applyEmbeddingFlags(dataDir, values)) console.log(line);
  requireNamedHome(home);
  const service = createStudioService({
    home,
    dataDir,
    host: 'serve',
    appVersion: packageVersion(),
    mcpLauncher: nodeLauncher(),
    importSources: importSources(values),
  });
  const handle = await startServeHost({ service, rendererDir, port: parsePort(values.port), startedBy: startedBy(via) });
  console.log(`Memory Studio is serving ${home.codexHome}${home.source === 'demo' ? ' (demo)' : ''}`);
  printUnmasked(`Open: ${handle.url}`);
  console.log('Only this machine can connect (127.0.0.1), and only with the token in that URL. Press Ctrl+C to stop.');
  // After the URL: the CLI's index commands on this home are answered by this app from now on, by a keeper on a thread
  // of its own (keeper-app.ts); its log lines are the app's.
  const keeper = startAppKeeper(home, dataDir, (line) => console.error(`[keeper] ${line}`));
  let signals: StopSignals | undefined;
  let unfollow: (() => void) | null = null;
  const signal = await new Promise<NodeJS.Signals>((resolvePromise) => {
    signals = onStopSignals(resolvePromise);
    unfollow = followLauncher(() => {
      console.log('npm, which started Memory Studio, has ended.');
      resolvePromise('SIGTERM');
    });
  });
  (unfollow as (() => void) | null)?.();
  console.log('Stopping Memory Studio\u2026 (a consolidation still running is cancelled first and Codex\u2019s lock handed back)');
  // First (a moment at most): no command is answered by an app whose service is stopping.
  await keeper.close();
  await service.shutdown();
  await handle.close();
  // Workers end between awaits, never mid-read as the process exits; one that does not (stuck in its task) is
  // terminated, and one termination cannot reach would hold the exit: the process then ends without it.
  const { stuck } = await shutdownWorkerPool({ graceMs: STOP_WORKER_GRACE_MS });
  signals?.dispose();
  if (stuck > 0) raiseAgain(signal, `Stopped; ${stuck} background worker(s) did not end, so the process ends without them.`);
  return 0;
}

/** The engine flags applied to the data folder's settings; a bad value stops the start with its message (exit 2). */
async function engineFlags(dataDir: string, values: HostValues): Promise<string[]> {
  try {
    return await applyEngineFlags(dataDir, values);
  } catch (error) {
    const failure = toStudioError(error);
    throw new UsageError(`${failure.message}${failure.hint ? ` ${failure.hint}` : ''}`);
  }
}

export async function start(values: HostValues): Promise<number> {
  if (values.serve || process.env.MEMORY_STUDIO_NO_ELECTRON) return serve(values, undefined, 'start');
  checkDataDirPlacement(cliDataDir(values['data-dir']), cliCodexHome(values['codex-home']).codexHome);
  await engineFlags(cliDataDir(values['data-dir']), values);
  await applyEmbeddingFlags(cliDataDir(values['data-dir']), values);
  const home = await chooseHome(values);
  requireNamedHome(home);
  const args = [`--codex-home=${home.codexHome}`];
  if (home.source === 'demo') args.push('--demo');
  if (values['data-dir']) args.push(`--data-dir=${cliPath(values['data-dir'])}`);
  const result = await runElectron(args);
  if (result.started) return result.code;
  console.log(`Electron cannot start here: ${result.reason}. Serving the same UI for your browser instead.`);
  return serve(values, home, 'start');
}

export async function demoHome(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      scale: { type: 'string' },
      version: { type: 'string' },
      seed: { type: 'string' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const dir = positionals[0];
  if (!dir) throw new UsageError(`demo-home needs a target folder: ${followUp(['demo-home', 'DIR'])}`);
  // The data folder is the app's, not the home's: checked as start checks it, then carried into the command printed.
  if (values['data-dir'] !== undefined) checkDataDirPlacement(cliDataDir(values['data-dir']), cliPath(dir));
  const scale = values.scale ?? 'small';
  const version = values.version ?? 'both';
  if (scale !== 'small' && scale !== 'heavy') throw new UsageError(`--scale must be small or heavy, not "${scale}".`);
  if (version !== 'v1' && version !== 'v2' && version !== 'both')
    throw new UsageError(`--version must be v1, v2 or both, not "${version}".`);
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isInteger(seed)) throw new UsageError(`--seed must be a whole number, not "${values.seed}".`);
  const started = Date.now();
  // Progress redraws one line: a terminal's, never a pipe's or a log's.
  const progress = !values.json && stderrIsTTY();
  const manifest = await generateDemoHome({
    dir: cliPath(dir),
    scale,
    version,
    seed,
    onProgress: progress ? (phase, done, total) => writeStderr(`\r${phase}: ${done}/${total}   `) : undefined,
  });
  if (values.json) console.log(JSON.stringify(manifest, null, 2));
  else {
    if (progress) writeStderr('\n');
    console.log(`Wrote a ${scale} Codex home (${version}) to ${manifest.codexHome} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    const run = { 'codex-home': manifest.codexHome, 'data-dir': values['data-dir'] };
    console.log(`Open it: ${followUp(['start'], run)}`);
    console.log(`Or look at it here: ${followUp(['inspect'], { 'codex-home': manifest.codexHome })}`);
  }
  return 0;
}
