// `memory-studio apply ID`: the decided hunks written under Codex's lock, on the core directly (no service, no
// watcher, none of the other channels' modules), so a ten-file Apply is over in a few hundred milliseconds. Through
// the service it took 590 ms for one file against 340 ms here (loading every channel's handlers and the contract's
// schemas); it shares the service's pieces instead: the start recovery (recoverBeforeCommand), applyProposal and the
// coordination object.
import { parseArgs } from 'node:util';
import type { AppliedProposal } from '../../shared/review';
import { inspectHome } from '../core/codex/home';
import { checkDataDirPlacement } from '../core/service/data-dir-check';
import { getProposal, setDecisions } from '../core/review/proposals';
import { applyProposal } from '../core/apply';
import { createCoordination } from '../core/service/coordination';
import { openStudioDb } from '../core/studio-db';
import { decisionsFor, printFailure } from './cli-decisions';
import { CliUsageError } from './cli-errors';
import { printJson } from './cli-output';
import { homeForProposal } from './cli-proposal-home';
import { recoverBeforeCommand } from './cli-recovery';
import { where } from './cli-where';
import { cliCodexHome, cliDataDir } from './cli-io';

function printApplied(id: string, applied: AppliedProposal): void {
  console.log(`Applied ${id} as history entry ${applied.entry.id}:`);
  for (const w of applied.written) console.log(`  ${w.action === 'delete' ? 'deleted' : 'wrote'} ${where(w)}`);
  for (const p of applied.alreadyInPlace) console.log(`  already in place: ${p}`);
  for (const l of applied.lease)
    if (l.previous === 'pending') console.log(`  Codex will fold the change into its next ${l.version} consolidation.`);
}

export async function applyCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'codex-home': { type: 'string' },
      'data-dir': { type: 'string' },
      json: { type: 'boolean' },
      accept: { type: 'string' },
      resolve: { type: 'string' },
    },
  });
  const id = positionals[0];
  if (!id)
    throw new CliUsageError(
      'apply needs a proposal id: memory-studio apply ID [--accept all | --accept HUNK_ID,...] [--resolve HUNK=theirs|ours|both,...]',
    );
  const dataDir = cliDataDir(values['data-dir']);
  checkDataDirPlacement(dataDir, cliCodexHome(values['codex-home']).codexHome);
  const db = openStudioDb(dataDir);
  try {
    const proposal = getProposal(db, id);
    const home = await inspectHome(homeForProposal(proposal, values['codex-home']));
    checkDataDirPlacement(dataDir, home.codexHome);
    await recoverBeforeCommand(home, dataDir);
    const files = decisionsFor(proposal, values.accept, values.resolve);
    if (files) setDecisions(db, id, files);
    const applied = await applyProposal(db, home, dataDir, id, createCoordination());
    if (values.json) printJson(applied);
    else printApplied(id, applied);
    return 0;
  } catch (error) {
    return printFailure(values.json, error);
  } finally {
    db.close();
  }
}
