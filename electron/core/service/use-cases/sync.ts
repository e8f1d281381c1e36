// Sync for a short-lived host (the CLI): the engine with the Studio DB an arrival's proposal is recorded in. The
// export bundles are use-cases/export.ts and use-cases/bundle.ts, so a sync command never loads the archive library.
import type { HomeInfo } from '../../../../shared/domain';
import { openStudioDb } from '../../studio-db';
import { syncInit, syncPull, syncPush, syncStatus, type InitInput, type PullResult, type SyncStep } from '../../sync';

export { syncInit, syncPush, syncStatus, type InitInput, type SyncStep };
export type { PullResult, PushResult, StatusResult } from '../../sync';

/** Pulls, proposing what arrived in `dataDir`'s Studio DB (the proposal the app and `apply` review). */
export async function syncPullForCommand(home: HomeInfo, dataDir: string, step: SyncStep, env: NodeJS.ProcessEnv): Promise<PullResult> {
  const db = openStudioDb(dataDir);
  try {
    return await syncPull(home, dataDir, db, step, env);
  } finally {
    db.close();
  }
}
