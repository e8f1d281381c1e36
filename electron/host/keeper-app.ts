// The app as the keeper (`serve`, `npm start`, Electron): while it is open on a home, the CLI's index commands on that
// home are answered by it, as `memory-studio keep` answers them, by the same keeper running on a thread of the app's
// own (keeper-thread.ts), so a command it answers never holds the app's main loop. A home that is not there yet (the
// default ~/.codex before Codex ran) gets none, said in the log; one already kept by `keep` is left to it, said too.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { HomeInfo } from '../../shared/domain';
import { nativeSqliteRoot } from '../core/platform/sqlite';
import type { KeeperThreadData, KeeperThreadMessage } from './keeper-thread';

/** How long a stopping app waits for its keeper to close (it declines waiting clients, lets one finish) before ending it. */
const CLOSE_MS = 1_500;

export interface AppKeeper {
  /** Stops answering and ends the thread (at most CLOSE_MS, then it is terminated). */
  close(): Promise<void>;
}

export function startAppKeeper(
  choice: { codexHome: string; source: HomeInfo['source'] },
  dataDir: string,
  log: (line: string) => void,
): AppKeeper {
  const workerData: KeeperThreadData = { ...choice, dataDir, sqlitePackageRoot: nativeSqliteRoot() };
  let worker: Worker;
  try {
    worker = new Worker(join(__dirname, 'keeper-thread.js'), { workerData });
  } catch (error) {
    log(`The command line runs without this app's help: its keeper could not start (${String(error)}).`);
    return { close: () => Promise.resolve() };
  }
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (message: KeeperThreadMessage) => {
    if (message.type === 'log') log(message.line);
  });
  worker.on('error', (error) => log(`The command line runs without this app's help: its keeper stopped (${String(error)}).`));
  worker.unref(); // the app ends when it ends, not when its keeper does
  return {
    close: async () => {
      worker.postMessage({ type: 'close' });
      const late = setTimeout(() => void worker.terminate(), CLOSE_MS);
      await exited;
      clearTimeout(late);
    },
  };
}
