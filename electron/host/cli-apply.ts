// `memory-studio apply ID`: the decided hunks written under Codex's lock, through the apply use case
// (core/service/use-cases/apply-command.ts: on the core directly, so a ten-file Apply is over in a few hundred ms).
import { parseArgs } from 'node:util';
import type { AppliedProposal } from '../../shared/review';
import { checkDataDirPlacement } from '../core/service/data-dir-check';
import { applyForCommand } from '../core/service/use-cases/apply-command';
import { decisionsFor, printFailure, requireDecided } from './cli-decisions';
import { CliUsageError } from './cli-errors';
import { printJson } from './cli-output';
import { homeForProposal } from './cli-proposal-home';
import { where } from './cli-where';
import { proposalFlags, followUp, type RunFlags } from './cli-follow-up';
import { cliCodexHome, cliDataDir, writeStderr } from './cli-io';

function printApplied(id: string, applied: AppliedProposal, run: RunFlags): void {
  console.log(`Applied ${id} as history entry ${applied.entry.id}: ${applied.entry.summary}`);
  for (const w of applied.written) console.log(`  ${w.action === 'delete' ? 'deleted' : 'wrote'} ${where(w)}`);
  for (const p of applied.alreadyInPlace) console.log(`  already in place: ${p}`);
  // A forget or a repair changes Codex's DBs only: said, with where to read each change.
  if (applied.written.length === 0 && applied.alreadyInPlace.length === 0)
    console.log(`  changed Codex's DB as the proposal showed (${followUp(['show', id], proposalFlags(run))} lists each change)`);
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
    throw new CliUsageError('apply needs a proposal id: memory-studio apply ID --accept all (memory-studio proposals lists the ids).');
  const dataDir = cliDataDir(values['data-dir']);
  checkDataDirPlacement(dataDir, cliCodexHome(values['codex-home']).codexHome);
  try {
    const applied = await applyForCommand({
      dataDir,
      id,
      home: (proposal) => homeForProposal(proposal, values['codex-home']),
      decide: (proposal) => {
        const files = decisionsFor(proposal, values.accept, values.resolve, values);
        requireDecided(proposal, files, values);
        return files;
      },
      say: (line) => writeStderr(`${line}\n`),
    });
    if (values.json) printJson(applied);
    else printApplied(id, applied, values);
    return 0;
  } catch (error) {
    // An undecided hunk or a bad --resolve is a usage error: main prints it (as JSON with --json), exit 2.
    return printFailure(values.json, error);
  }
}
