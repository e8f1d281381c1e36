// `apply ID` for a short-lived host (the CLI): the proposal's decisions recorded, then the decided hunks written under
// Codex's lock, on the core directly (no service, no watcher, none of the other channels' modules), so a ten-file Apply
// is over in a few hundred milliseconds. Through the service it took 590 ms for one file against 340 ms this way
// (loading every channel's handlers and the contract's schemas); it shares the service's pieces instead: the start
// recovery, applyProposal and the coordination object.
import type { AppliedProposal, Proposal } from '../../../../shared/review';
import { applyProposal } from '../../apply';
import type { HomeChoice } from '../../codex/home-path';
import { getProposal, setDecisions, type FileDecisions } from '../../review/proposals';
import { openStudioDb } from '../../studio-db';
import { createCoordination } from '../coordination';
import { openCommandHome } from './command-home';

export interface ApplyForCommand {
  dataDir: string;
  id: string;
  /** The home to write to, from the proposal (see proposal-home.ts). */
  home: (proposal: Proposal) => HomeChoice;
  /** Decisions given with the command (null: keep what was stored). */
  decide: (proposal: Proposal) => readonly FileDecisions[] | null;
  /** Lines of the start recovery, for the command's stderr. */
  say: (line: string) => void;
}

export async function applyForCommand(options: ApplyForCommand): Promise<AppliedProposal> {
  const db = openStudioDb(options.dataDir);
  try {
    const proposal = getProposal(db, options.id);
    const home = await openCommandHome(options.home(proposal), options.dataDir, options.say);
    const files = options.decide(proposal);
    if (files) setDecisions(db, options.id, files);
    return await applyProposal(db, home, options.dataDir, options.id, createCoordination());
  } finally {
    db.close();
  }
}
