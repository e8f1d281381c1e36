// `memory-studio apply ID`: the decided hunks written under Codex's lock, on the core directly (no service, no
// watcher, none of the other channels' modules), so a ten-file Apply is over in a few hundred milliseconds.
import { parseArgs } from 'node:util';
import type { AppliedProposal } from '../../shared/review';
import { resolveDataDir } from '../core/data-dir';
import type { StudioFailure } from '../core/errors';
import { inspectHome, resolveCodexHome } from '../core/home';
import { getProposal, setDecisions } from '../core/review';
import { applyProposal } from '../core/review-apply';
import { openStudioDb } from '../core/studio-db';
import { CliUsageError, exitCodeOf } from './cli-errors';

function printApplied(id: string, applied: AppliedProposal): void {
  console.log(`Applied ${id} as history entry ${applied.entry.id}:`);
  for (const w of applied.written) console.log(`  ${w.action === 'delete' ? 'deleted' : 'wrote'} ${w.version}/${w.relPath}`);
  for (const p of applied.alreadyInPlace) console.log(`  already in place: ${p}`);
  for (const l of applied.lease) if (l.previous === 'pending') console.log(`  Codex will fold the change into its next ${l.version} consolidation.`);
}

/** `--accept all` or a list of hunk ids becomes the decisions; every other hunk is rejected. */
function decide(db: ReturnType<typeof openStudioDb>, id: string, accept: string): void {
  const proposal = getProposal(db, id);
  const known = new Set(proposal.files.flatMap((f) => f.hunks.map((h) => h.id)));
  const chosen = new Set(accept === 'all' ? known : accept.split(',').map((x) => x.trim()));
  const unknown = [...chosen].filter((h) => !known.has(h));
  if (unknown.length > 0) throw new CliUsageError(`Unknown hunk ids: ${unknown.join(', ')}. "memory-studio show ${id}" lists them.`);
  setDecisions(db, id, proposal.files.map((f) => ({ ord: f.ord, decisions: Object.fromEntries(f.hunks.map((h) => [h.id, chosen.has(h.id) ? ('accept' as const) : ('reject' as const)])) })));
}

export async function applyCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { 'codex-home': { type: 'string' }, 'data-dir': { type: 'string' }, json: { type: 'boolean' }, accept: { type: 'string' } } });
  const id = positionals[0];
  if (!id) throw new CliUsageError('apply needs a proposal id: memory-studio apply ID [--accept all | --accept HUNK_ID,...]');
  const dataDir = resolveDataDir({ flag: values['data-dir'] });
  const db = openStudioDb(dataDir);
  try {
    if (values.accept !== undefined) decide(db, id, values.accept);
    const applied = await applyProposal(db, await inspectHome(resolveCodexHome({ flag: values['codex-home'] })), dataDir, id);
    if (values.json) console.log(JSON.stringify(applied, null, 2));
    else printApplied(id, applied);
    return 0;
  } catch (error) {
    if (error instanceof CliUsageError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    const hint = (error as StudioFailure).hint;
    if (values.json) console.log(JSON.stringify({ ok: false, error: { kind: (error as StudioFailure).kind ?? 'Internal', message, hint } }));
    else console.error(`${message}${hint ? `\n${hint}` : ''}`);
    return exitCodeOf(error);
  } finally {
    db.close();
  }
}
