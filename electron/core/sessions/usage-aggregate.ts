// Reads Codex's usage counters from its DBs (the folding into per-file and per-thread usage is in usage-report.ts).
import type { HomeInfo } from '../../../shared/domain';
import type { DbProblem } from '../../../shared/health';
import { classifyDbError } from '../codex-db/open-db';
import { readDbUsage } from '../codex-db/outputs';
import { openCodexStores } from '../codex-db/stores';

import type { DbUsageByVersion } from './usage-report';

export type { DbUsageByVersion } from './usage-report';

/** usage_count / last_usage of every stage-1 row, per version whose tables could be read. */
export async function readAllDbUsage(home: HomeInfo): Promise<{ usage: DbUsageByVersion; problems: DbProblem[] }> {
  const stores = await openCodexStores(home);
  const usage: DbUsageByVersion = new Map();
  try {
    for (const store of stores.versions) {
      if (!store.handle || !store.outputs) continue;
      try {
        usage.set(store.version, readDbUsage(store.handle.db, store.outputs));
      } catch (error) {
        stores.problems.push(classifyDbError(store.tablesIn === 'state-db' ? 'state' : store.dbName, store.handle.read.path, error));
      }
    }
    return { usage, problems: stores.problems };
  } finally {
    stores.close();
  }
}

export { aggregateFiles, aggregateThreads } from './usage-report';
