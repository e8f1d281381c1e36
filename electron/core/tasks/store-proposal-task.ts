// The pool task behind review/store-proposal.ts: a new proposal's one transaction, on the worker's own connection to
// the Studio DB (the review area stays below the Studio DB's opening, so the task lives here, where the tasks meet).
import { insertProposal } from '../review/proposal-rows';
import type { StoreProposalInput } from '../review/store-proposal';
import { openStudioDb } from '../studio-db';

export function storeProposalTask(input: StoreProposalInput): null {
  const db = openStudioDb(input.dataDir);
  try {
    db.transaction(() => insertProposal(db, input.row, input.files, input.dbChanges));
  } finally {
    db.close();
  }
  return null;
}
