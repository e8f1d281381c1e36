// What apply's --accept and --resolve decide, and how review commands print a failure: shared by apply (on the core
// directly) and the review commands (through the service), with nothing heavy to load.
import type { DecisionMap, Proposal } from '../../shared/review';
import { toStudioError } from '../core/platform/errors';
import { CliUsageError, exitCodeOf } from './cli-errors';
import { printJson } from './cli-output';
import { proposalFlags, followUp, type RunFlags, withCliPrefix } from './cli-follow-up';

/** A failure as `{ ok: false, error }` with --json, else its message and hint; exit 2 conflict, 3 locked, 1 otherwise. */
export function printFailure(json: boolean | undefined, error: unknown): number {
  if (error instanceof CliUsageError) throw error;
  const failure = toStudioError(error);
  if (json) printJson({ ok: false, error: failure }, false);
  else console.error(`${failure.message}${failure.hint ? `\n${withCliPrefix(failure.hint)}` : ''}`);
  return exitCodeOf(error);
}

const RESOLUTIONS = new Set(['theirs', 'ours', 'both']);

/** `--resolve h1=theirs,h2=both`: conflict hunks only (edit by hand is for the app, or `review.decide` over serve). */
function parseResolve(
  value: string | undefined,
  conflicts: ReadonlySet<string>,
  id: string,
  run: RunFlags,
): Map<string, 'theirs' | 'ours' | 'both'> {
  const out = new Map<string, 'theirs' | 'ours' | 'both'>();
  if (value === undefined) return out;
  for (const item of value
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    const [hunk, choice] = item.split('=') as [string, string | undefined];
    if (!choice || !RESOLUTIONS.has(choice)) throw new CliUsageError(`--resolve takes HUNK=theirs|ours|both, not "${item}".`);
    if (!conflicts.has(hunk))
      throw new CliUsageError(
        `${hunk} is not a conflict hunk of ${id}. "${followUp(['show', id], proposalFlags(run))}" lists the conflicts.`,
      );
    out.set(hunk, choice as 'theirs' | 'ours' | 'both');
  }
  return out;
}

/**
 * `--accept` decides change hunks (the others are rejected) and never a conflict; `--resolve` decides conflicts.
 * Decisions not named keep what was stored.
 */
export function decisionsFor(
  proposal: Proposal,
  accept: string | undefined,
  resolve: string | undefined,
  run: RunFlags = {},
): Array<{ ord: number; decisions: DecisionMap }> | null {
  const hunks = proposal.files.flatMap((f) => f.hunks);
  const conflicts = new Set(hunks.filter((h) => h.kind === 'conflict').map((h) => h.id));
  const changes = new Set(hunks.filter((h) => h.kind !== 'conflict').map((h) => h.id));
  const chosen = accept === undefined ? null : new Set(accept === 'all' ? changes : accept.split(',').map((x) => x.trim()));
  const named = [...(chosen ?? [])];
  const asConflict = named.filter((h) => conflicts.has(h));
  if (asConflict.length > 0)
    throw new CliUsageError(
      `${asConflict.join(', ')} ${asConflict.length === 1 ? 'is a conflict' : 'are conflicts'}: accepting does not resolve ${asConflict.length === 1 ? 'it' : 'them'}; use --resolve HUNK=theirs|ours|both.`,
    );
  const unknown = named.filter((h) => !changes.has(h));
  if (unknown.length > 0)
    throw new CliUsageError(
      `Unknown hunk ids: ${unknown.join(', ')}. "${followUp(['show', proposal.id], proposalFlags(run))}" lists them.`,
    );
  const resolutions = parseResolve(resolve, conflicts, proposal.id, run);
  if (!chosen && resolutions.size === 0) return null;
  return proposal.files.map((f) => {
    const decisions: DecisionMap = {};
    for (const h of f.hunks) {
      if (h.kind === 'conflict') {
        const r = resolutions.get(h.id);
        if (r) decisions[h.id] = r;
      } else if (chosen) decisions[h.id] = chosen.has(h.id) ? 'accept' : 'reject';
    }
    return { ord: f.ord, decisions };
  });
}

/**
 * Before apply writes: a change hunk of a pending file that nothing decided (neither the command nor a stored
 * decision) is refused with how to decide it, as is a proposal whose every change is rejected; Apply would otherwise
 * count undecided hunks as rejected and write nothing the person meant.
 */
export function requireDecided(
  proposal: Proposal,
  given: ReadonlyArray<{ ord: number; decisions: DecisionMap }> | null,
  run: RunFlags = {},
): void {
  const files = proposal.files.filter((f) => f.status === 'pending');
  const decisionOf = (ord: number, hunkId: string, stored: DecisionMap) =>
    given?.find((g) => g.ord === ord)?.decisions[hunkId] ?? stored[hunkId];
  const changes = files.flatMap((f) => f.hunks.filter((h) => h.kind !== 'conflict').map((h) => decisionOf(f.ord, h.id, f.decisions)));
  if (changes.length === 0) return;
  const undecided = changes.filter((d) => d === undefined).length;
  const id = proposal.id;
  const how = `${followUp(['apply', id, '--accept', 'all'], proposalFlags(run))}, or --accept HUNK_ID,... (${followUp(['show', id], proposalFlags(run))} lists the ids).`;
  if (undecided > 0)
    throw new CliUsageError(
      `${undecided} of ${changes.length} hunk${changes.length === 1 ? '' : 's'} of ${id} ${undecided === 1 ? 'is' : 'are'} undecided; nothing was written.\nDecide them: ${how}`,
    );
  const conflicts = files.some((f) => f.hunks.some((h) => h.kind === 'conflict'));
  if (!conflicts && proposal.dbChanges.length === 0 && changes.every((d) => d === 'reject'))
    throw new CliUsageError(`Every hunk of ${id} is rejected; nothing was written.\nAccept some: ${how}`);
}
