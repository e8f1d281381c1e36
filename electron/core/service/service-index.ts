// The service's index of its home: the handlers' access to it, a refresh in the background shortly after a change, and
// the same index shared with the app's keeper (host/keeper-server.ts), which answers the CLI from it.
import type { EventEnvelope } from '../../../shared/contract';
import type { HomeInfo } from '../../../shared/domain';
import type { IndexStatus } from '../../../shared/search';
import type { IndexAccess } from '../handlers/context';
import { IndexManager } from '../index-store/manager';
import { indexPathFor } from '../index-store/open-index';
import type { StudioServiceOptions } from './service';

/** How long after a change the background index refresh waits (the watcher's events come in bursts). */
const INDEX_REFRESH_DELAY_MS = 300;

/** The service's index manager, lent to the app's keeper: one index, one refresh at a time, for the window and the CLI. */
export interface SharedIndex {
  manager: IndexManager;
  /** Every status of the manager (the keeper shows a command's refresh on its client's terminal); returns unsubscribe. */
  onStatus(listener: (status: IndexStatus) => void): () => void;
  /** The home the service has open now (the person may switch to another in the window). */
  codexHome(): string;
}

/** What the index needs of the context: the current home (inspected, or only its folder) and whether it is closing. */
export interface IndexedHomeSource {
  knownHome(): Promise<HomeInfo>;
  codexHome(): string;
  closed(): boolean;
}

/**
 * The home's index in the data folder (none when indexing is off): the handlers' access to it, and a refresh in the
 * background shortly after a change.
 */
export function createIndexing(
  options: StudioServiceOptions,
  emitToListeners: (event: EventEnvelope) => void,
  log: (line: string) => void,
  home: IndexedHomeSource,
) {
  const statusListeners = new Set<(status: IndexStatus) => void>();
  const indexer =
    options.indexing === false
      ? null
      : new IndexManager({
          dataDir: options.dataDir,
          scanOnPool: true,
          onStatus: (payload) => {
            emitToListeners({ event: 'index.progress', payload });
            for (const listener of statusListeners) listener(payload);
          },
          log,
          open: { maxPages: options.indexMaxPages },
        });
  let refreshTimer: NodeJS.Timeout | undefined;
  // After the watcher saw a change: refresh in the background (on workers), so search is current when asked.
  const refreshSoon = () => {
    if (!indexer || home.closed()) return;
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = setTimeout(
      () =>
        void home
          .knownHome()
          .then((info) => indexer.fresh(info))
          .catch((error: unknown) => log(`[index] ${String(error)}`)),
      INDEX_REFRESH_DELAY_MS,
    );
    refreshTimer.unref();
  };
  const access: IndexAccess = {
    // Without a watcher nothing says a file changed: every request refreshes (a stat-only pass).
    fresh: async (opts = {}) => (indexer ? indexer.fresh(await home.knownHome(), options.watch === false ? {} : opts) : null),
    last: () => indexer?.last(home.codexHome()) ?? null,
    status: () =>
      indexer?.status() ?? { state: 'off', done: 0, total: 0, message: 'The index is not kept in this mode.', notice: null, path: null },
    cancel: () => indexer?.cancel(),
    resume: () => {
      indexer?.resume();
      refreshSoon();
    },
    path: () => (indexer && indexer.status().state !== 'off' ? indexPathFor(options.dataDir, home.codexHome()) : null),
  };
  return {
    access,
    /** A file or a root changed: the index is stale, and refreshed soon. */
    changed: () => {
      indexer?.markDirty();
      refreshSoon();
    },
    refreshSoon,
    shared: (): SharedIndex | null =>
      indexer && !home.closed()
        ? {
            manager: indexer,
            onStatus: (listener) => {
              statusListeners.add(listener);
              return () => statusListeners.delete(listener);
            },
            codexHome: () => home.codexHome(),
          }
        : null,
    dispose: () => {
      statusListeners.clear();
      if (refreshTimer) clearTimeout(refreshTimer);
      indexer?.dispose();
    },
  };
}
