// The app's keeper, on a thread of its own (compiled to out/electron/host/keeper-thread.js, started by keeper-app.ts):
// the same keeper as `memory-studio keep` (keeper-server.ts), answering the CLI's commands on the app's home from its
// own watch and index, with its own event loop. The commands it answers (reading the index, building a report,
// masking and printing it) never run on the app's main loop, so the window and the serve host never wait on them.
import { parentPort, workerData } from 'node:worker_threads';
import type { HomeInfo } from '../../shared/domain';
import { configureNativeSqlite } from '../core/platform/sqlite';
import type { StudioFailure } from '../core/platform/errors';
import { inspectHome } from '../core/service/use-cases/command-home';
import { startKeeper, type KeeperHandle } from './keeper-server';

export interface KeeperThreadData {
  codexHome: string;
  source: HomeInfo['source'];
  dataDir: string;
  /** The Electron build of better-sqlite3 (as the pool's workers are told). */
  sqlitePackageRoot?: string;
}

/** Main → thread: stop. Thread → main: a log line, or that it stopped. */
export type KeeperThreadMessage = { type: 'log'; line: string } | { type: 'closed' };

const data = workerData as KeeperThreadData;
const post = (message: KeeperThreadMessage) => parentPort?.postMessage(message);
const log = (line: string) => post({ type: 'log', line });

async function start(): Promise<KeeperHandle | null> {
  if (data.sqlitePackageRoot) configureNativeSqlite(data.sqlitePackageRoot);
  const home = await inspectHome({ codexHome: data.codexHome, source: data.source });
  if (!home.exists) {
    log(`${home.codexHome} does not exist yet, so the command line answers by itself (restart the app once Codex made it).`);
    return null;
  }
  return startKeeper({
    home,
    dataDir: data.dataDir,
    verbose: false,
    logAnswers: true,
    refreshFirst: false,
    quietOutsideRequests: true,
    log,
    // The page limit a client compares (KEEPER_ENV) is honoured as `keep` honours it.
    maxPages: Number(process.env.MEMORY_STUDIO_INDEX_MAX_PAGES) || undefined,
  });
}

const started = start().catch((error: unknown) => {
  const failure = error as Partial<StudioFailure>;
  log(`The command line runs without this app's help: ${failure.message ?? String(error)}`);
  return null;
});
// No keeper (no home yet, or it is kept already): the thread ends rather than idle beside the app.
void started.then((keeper) => {
  if (!keeper) parentPort?.close();
});

parentPort?.on('message', (message: { type: 'close' }) => {
  if (message.type !== 'close') return;
  void started
    .then((keeper) => keeper?.close())
    .catch(() => undefined)
    .finally(() => {
      post({ type: 'closed' });
      parentPort?.close();
    });
});
