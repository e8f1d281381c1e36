// A new proposal's rows written: in this thread, or, for texts past 1 MiB, on the pool with its own connection, so the
// app's main loop is not held by the transaction that stores a big file's texts (60-90 ms for a 5.6 MB MEMORY.md).
import { dirname } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import type { DbChange } from '../../../shared/review';
import { poolAvailable, runTask } from '../runtime/pool';
import type { StudioDb } from '../studio-db';
import { insertProposal, type ProposalRow, type StoredFile } from './proposal-rows';

/** Stored characters (bases and proposed texts) past which the rows are written on the pool. */
export const OFF_THREAD_STORE_CHARS = 1024 * 1024;

export interface StoreProposalInput {
  dataDir: string;
  row: ProposalRow;
  files: StoredFile[];
  dbChanges: DbChange[];
}

/** Writes the proposal in one transaction; `afterInsert` (a caller's own rows) keeps it in this thread and connection. */
export async function storeProposal(
  db: StudioDb,
  row: ProposalRow,
  files: StoredFile[],
  dbChanges: DbChange[],
  afterInsert?: (db: StudioDb, id: string) => void,
): Promise<void> {
  const chars = files.reduce((n, f) => n + (f.baseContent?.length ?? 0) + (f.proposedContent?.length ?? 0), 0);
  if (!afterInsert && isMainThread && chars > OFF_THREAD_STORE_CHARS && poolAvailable()) {
    await runTask('store-proposal', { dataDir: dirname(db.path), row, files, dbChanges });
    return;
  }
  db.transaction(() => {
    insertProposal(db, row, files, dbChanges);
    afterInsert?.(db, row.id);
  });
}
