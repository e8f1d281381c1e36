// The home's index for one command of a short-lived host (the CLI): kept in the data folder and refreshed by the
// stat-only pass on this thread (the command only waits), with its progress handed to the host to print.
import type { HomeInfo } from '../../../../shared/domain';
import type { IndexStatus } from '../../../../shared/search';
import { IndexManager } from '../../index-store/manager';
import { indexPathFor } from '../../index-store/open-index';

export type { IndexedHome } from '../../index-store/inspect';
export type { IndexManager };

/** Where the home's index lives in the data folder. */
export const commandIndexPath = (dataDir: string, home: HomeInfo): string => indexPathFor(dataDir, home.codexHome);

/** An index manager for one command; `maxPages` is SQLite's page limit (tests of the full-disk path). */
export function commandIndexManager(dataDir: string, onStatus: (status: IndexStatus) => void, maxPages?: number): IndexManager {
  return new IndexManager({ dataDir, scanOnPool: false, onStatus, open: { maxPages } });
}
