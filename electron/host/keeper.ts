// `memory-studio keep`: a process the person starts that keeps one home's index fresh from file events and answers
// that home's read-only index commands for the CLI (as git's fsmonitor daemon or watchman do for `git status`). The
// CLI then skips Node's module loading and the stat pass of every file; the answers are the same commands' answers,
// run here one at a time, with their output forwarded (`keeper-client.ts` is the other side and the protocol).
//
// When the index may be answered from without the stat pass is for `core/service/use-cases/kept-index.ts` to say;
// what the watch sees, for `core/codex/home-watch.ts`.
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { inspectHome } from '../core/service/use-cases/command-home';
import { checkDataDirPlacement } from '../core/service/data-dir-check';
import { configureWorkerPool, shutdownWorkerPool } from '../core/service/use-cases/runtime';
import { onStopSignals, raiseAgain, STOP_WORKER_GRACE_MS, type StopSignals } from './stop-signals';
import { CliUsageError } from './cli-errors';
import { requireHome } from './cli-index';
import { cliCodexHome, cliDataDir } from './cli-io';
import { printUnmasked } from './cli-output';
import { KEPT_COMMANDS } from './keeper-client';
import { startKeeper } from './keeper-server';

/** The keeper's own lines: its stderr, never a client's. */
function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** "inspect, lint, budget, search and doctor". */
export function keptList(): string {
  return `${KEPT_COMMANDS.slice(0, -1).join(', ')} and ${KEPT_COMMANDS[KEPT_COMMANDS.length - 1] ?? ''}`;
}

export async function keepCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'codex-home': { type: 'string' }, 'data-dir': { type: 'string' }, verbose: { type: 'boolean' } },
  });
  if (positionals.length > 0) throw new CliUsageError(`Unexpected argument "${positionals[0]}".`);
  const dataDir = cliDataDir(values['data-dir']);
  const home = await inspectHome(cliCodexHome(values['codex-home']));
  requireHome(home);
  checkDataDirPlacement(dataDir, home.codexHome);
  const keeper = await startKeeper({
    home,
    dataDir,
    prepare: () => configureWorkerPool({ size: Math.max(1, availableParallelism()) }),
    verbose: values.verbose === true,
    logAnswers: values.verbose === true,
    refreshFirst: true,
    log,
    maxPages: Number(process.env.MEMORY_STUDIO_INDEX_MAX_PAGES) || undefined,
  });
  printUnmasked(
    `Keeping the index of ${home.codexHome} fresh (${keeper.folders()} folders watched); ${keptList()} on this home are answered here. Ctrl+C stops.`,
  );
  let signals: StopSignals | undefined;
  const signal = await new Promise<NodeJS.Signals>((resolve) => (signals = onStopSignals(resolve)));
  await keeper.close();
  const { stuck } = await shutdownWorkerPool({ graceMs: STOP_WORKER_GRACE_MS });
  signals?.dispose();
  if (stuck > 0)
    raiseAgain(signal, `Stopped keeping the index; ${stuck} background worker(s) did not end, so the process ends without them.`);
  else log('Stopped keeping the index.');
  return 0;
}
