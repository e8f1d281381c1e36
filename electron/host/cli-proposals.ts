// `memory-studio proposals`: the proposals of the data folder, as the app's Review inbox lists them (review.list and
// review.get on the same service), with what `show` and `apply` need: the id, and how many hunks are still undecided.
import { parseArgs } from 'node:util';
import { ProposalStatusSchema, type Proposal, type ProposalStatus, type ProposalSummary } from '../../shared/review';
import type { StudioService } from '../core/service/service';
import { checkDataDirPlacement } from '../core/service/data-dir-check';
import { CliUsageError } from './cli-errors';
import { cliCodexHome, cliDataDir } from './cli-io';
import { dataOnly, followUp } from './cli-follow-up';
import { printJson, reportingFailures } from './cli-output';
import { openService } from './cli-service';
import { where } from './cli-where';

interface Values {
  status?: string;
  'codex-home'?: string;
  'data-dir'?: string;
  json?: boolean;
}

/** `--status`: pending by default; `all` lists every status. */
function statusOf(value: string | undefined): ProposalStatus | undefined {
  if (value === undefined) return 'pending';
  if (value === 'all') return undefined;
  const parsed = ProposalStatusSchema.safeParse(value);
  if (!parsed.success)
    throw new CliUsageError(`--status must be ${ProposalStatusSchema.options.join(', ')} or all, not "${value}": e.g. --status all.`);
  return parsed.data;
}

/** Change hunks and conflicts of the proposal's files, and how many of them carry a decision. */
export function hunkCounts(p: Pick<Proposal, 'files'>): { decided: number; total: number } {
  const hunks = p.files.flatMap((f) => f.hunks.map((h) => f.decisions[h.id] !== undefined));
  return { decided: hunks.filter(Boolean).length, total: hunks.length };
}

/** "just now", "12 min ago", "3 h ago", "2 days ago". */
export function age(at: number, now = Date.now()): string {
  const minutes = Math.floor(Math.max(0, now - at) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

interface Row {
  summary: ProposalSummary;
  proposal: Proposal;
}

function printRow({ summary, proposal }: Row): void {
  const { decided, total } = hunkCounts(proposal);
  const files = `${summary.fileCount} file${summary.fileCount === 1 ? '' : 's'}`;
  const db = proposal.dbChanges.length > 0 ? `, ${proposal.dbChanges.length} Codex DB change(s)` : '';
  console.log(
    `${summary.id}  ${summary.status}  ${age(summary.createdAt)}  ${summary.source}  ${files}${db}  ${decided}/${total} hunks decided  "${summary.title}"`,
  );
  const names = proposal.files.map(where);
  if (names.length > 0) console.log(`    ${names.slice(0, 3).join(', ')}${names.length > 3 ? `, and ${names.length - 3} more` : ''}`);
}

function printRows(rows: Row[], status: ProposalStatus | undefined, values: Values): void {
  const what = status ?? 'saved';
  if (rows.length === 0) {
    console.log(`No ${what} proposals in ${cliDataDir(values['data-dir'])}.`);
    if (status !== undefined) console.log(`Every status: ${followUp(['proposals', '--status', 'all'], dataOnly(values))}`);
    return;
  }
  console.log(`${rows.length} ${what} proposal${rows.length === 1 ? '' : 's'}, newest first:`);
  for (const row of rows) printRow(row);
  console.log(`See one's diff: ${followUp(['show', 'ID'], dataOnly(values))}`);
}

async function listRows(s: StudioService, status: ProposalStatus | undefined): Promise<Row[]> {
  const list = await s.call('review.list', status ? { status } : {});
  const rows: Row[] = [];
  for (const summary of list.proposals) rows.push({ summary, proposal: await s.call('review.get', { id: summary.id }) });
  return rows;
}

export async function proposalsCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { status: { type: 'string' }, 'codex-home': { type: 'string' }, 'data-dir': { type: 'string' }, json: { type: 'boolean' } },
  });
  if (positionals.length > 0) throw new CliUsageError(`proposals takes no argument "${positionals[0]}": give a status with --status.`);
  const status = statusOf(values.status);
  return reportingFailures(values.json, async () => {
    checkDataDirPlacement(cliDataDir(values['data-dir']), cliCodexHome(values['codex-home']).codexHome);
    // The proposals live in the data folder, whatever home each was made for: no Codex home needs to exist.
    const service = openService(values);
    try {
      const rows = await listRows(service, status);
      if (values.json)
        printJson({
          proposals: rows.map(({ summary, proposal }) => ({
            ...summary,
            files: proposal.files.map(({ version, target, root, relPath }) => ({ version, target, root, relPath })),
            hunks: hunkCounts(proposal),
          })),
        });
      else printRows(rows, status, values);
      return 0;
    } finally {
      service.dispose();
    }
  });
}
