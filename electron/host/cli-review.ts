// The review family of CLI commands (propose, redact, note, show, rebase, apply, history, revert): the same channels as the app.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { MemoryVersion } from '../../shared/domain';
import type { Proposal, RebaseOutcome } from '../../shared/review';
import type { StudioService } from '../core/service/service';
import { CliUsageError, HOME_HINT, requireFolder } from './cli-errors';
import { printFailure } from './cli-decisions';
import { printJson, reportingFailures } from './cli-output';
import { homeForProposal } from './cli-proposal-home';
import { openService } from './cli-service';
import { where } from './cli-where';
import { printProposal } from './cli-diff';
import { checkDataDirPlacement } from '../core/service/data-dir-check';
import { readProposal } from '../core/service/use-cases/proposal-home';
import { cliCodexHome, cliDataDir, cliPath } from './cli-io';
import { proposalFlags, followUp, type RunFlags } from './cli-follow-up';

const common = { 'codex-home': { type: 'string' }, 'data-dir': { type: 'string' }, json: { type: 'boolean' } } as const;

export async function withService<T>(
  values: { 'codex-home'?: string; 'data-dir'?: string },
  fn: (s: StudioService) => Promise<T>,
): Promise<T> {
  requireFolder(cliCodexHome(values['codex-home']).codexHome, HOME_HINT);
  const service = openService(values);
  try {
    return await fn(service);
  } finally {
    service.dispose();
  }
}

/** `withService` on the home the proposal was made for (see cli-proposal-home.ts): show and rebase need no --codex-home. */
async function withProposalService<T>(
  values: { 'codex-home'?: string; 'data-dir'?: string },
  id: string,
  fn: (s: StudioService) => Promise<T>,
): Promise<T> {
  const dataDir = cliDataDir(values['data-dir']);
  checkDataDirPlacement(dataDir, cliCodexHome(values['codex-home']).codexHome);
  const codexHome = homeForProposal(readProposal(dataDir, id), values['codex-home']).codexHome;
  return withService({ ...values, 'codex-home': codexHome }, fn);
}

function version(value: string | undefined): MemoryVersion | undefined {
  if (value === undefined || value === 'v1' || value === 'v2') return value;
  throw new CliUsageError(`--version must be v1 or v2, not "${value}".`);
}

/** `--version`, else the version Codex uses for new sessions (memories.version; v2 when it is not set). */
async function targetVersion(s: StudioService, value: string | undefined): Promise<MemoryVersion> {
  return version(value) ?? (await s.call('home.get', {})).config.memories.version;
}

/** The commands that review and apply a new proposal, to paste; on stderr, so stdout stays the id a script reads. */
function printNext(id: string, run: RunFlags): void {
  console.error(`Review it: ${followUp(['show', id], proposalFlags(run))}`);
  console.error(`Apply it: ${followUp(['apply', id, '--accept', 'all'], proposalFlags(run))}`);
}

function printMadeId(proposal: Proposal, run: RunFlags): void {
  console.log(proposal.id);
  printNext(proposal.id, run);
}

const output = (json: boolean | undefined, value: unknown, human: () => void) => (json ? printJson(value) : human());

export async function proposeCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      ...common,
      version: { type: 'string' },
      file: { type: 'string', multiple: true },
      'content-file': { type: 'string', multiple: true },
      title: { type: 'string' },
    },
  });
  const paths = values.file ?? [];
  const contentFiles = values['content-file'] ?? [];
  if (paths.length === 0 || contentFiles.length === 0) throw new CliUsageError('propose needs --file REL and --content-file F.');
  if (paths.length !== contentFiles.length)
    throw new CliUsageError(
      `propose got ${paths.length} --file and ${contentFiles.length} --content-file; give each --file its --content-file, in order.`,
    );
  // Every file of the change in one proposal (one process, one review, one Apply), read before the service opens.
  const edits = await Promise.all(
    paths.map(async (path, i) => ({ path, content: await readFile(cliPath(contentFiles[i] as string), 'utf8') })),
  );
  const [first, ...more] = edits as [{ path: string; content: string }, ...{ path: string; content: string }[]];
  return withService(values, async (s) => {
    const proposal = await s.call('review.propose', {
      version: await targetVersion(s, values.version),
      path: first.path,
      content: first.content,
      title: values.title,
      ...(more.length > 0 ? { more } : {}),
    });
    output(values.json, proposal, () => printMadeId(proposal, values));
    return 0;
  });
}

/** `redact [--file REL]`: every secret of one file, or of every Markdown file of the root, as one proposal (review.redact). */
export async function redactCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...common, version: { type: 'string' }, file: { type: 'string' } } });
  return withService(values, async (s) => {
    const v = await targetVersion(s, values.version);
    const proposal = await s.call(
      'review.redact',
      values.file ? { version: v, path: values.file, all: 'file' } : { version: v, all: 'root' },
    );
    output(values.json, proposal, () => printMadeId(proposal, values));
    return 0;
  });
}

export async function noteCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { ...common, version: { type: 'string' }, slug: { type: 'string' }, 'text-file': { type: 'string' } },
  });
  if (!values.slug || !values['text-file']) throw new CliUsageError('note needs --slug S and --text-file F.');
  const text = await readFile(cliPath(values['text-file']), 'utf8');
  return withService(values, async (s) => {
    const proposal = await s.call('review.note', { version: await targetVersion(s, values.version), slug: values.slug as string, text });
    output(values.json, proposal, () => printMadeId(proposal, values));
    return 0;
  });
}

/** `forget THREAD_ID`: Codex's own "forget this session" as a proposal of Codex-DB changes (nothing changes until applied). */
export async function forgetCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: common });
  const threadId = positionals[0];
  if (!threadId || positionals.length > 1)
    throw new CliUsageError('forget needs exactly one THREAD_ID (the session id from Codex, e.g. from inspect or the session file name).');
  return withService(values, async (s) => {
    const proposal = await s.call('review.forget', { threadId });
    output(values.json, proposal, () => {
      console.log(proposal.id);
      for (const c of proposal.dbChanges) console.log(`  db ${c.db}: ${c.description}`);
      printNext(proposal.id, values);
    });
    return 0;
  });
}

/**
 * The command that resolves `conflicts` (and accepts every other hunk when `acceptAll`), to paste. It keeps the
 * proposal's side: a command with `theirs|ours|both` in it would run `apply … =theirs` and pipe into `ours`.
 */
function resolveCommand(id: string, conflicts: readonly string[], run: RunFlags, acceptAll: boolean): string {
  const words = ['apply', id, ...(acceptAll ? ['--accept', 'all'] : []), '--resolve', conflicts.map((c) => `${c}=ours`).join(',')];
  return followUp(words, proposalFlags(run));
}

const RESOLVE_CHOICES = 'each conflict takes =theirs (the disk), =ours (the proposal) or =both; to keep the proposal’s side:';

/** Under a pending proposal with undecided hunks or unresolved conflicts: the command that decides them, to paste. */
function printNextStep(p: Proposal, run: RunFlags): void {
  if (p.status !== 'pending') return;
  const open = (conflict: boolean) =>
    p.files.flatMap((f) => f.hunks.filter((h) => (h.kind === 'conflict') === conflict && f.decisions[h.id] === undefined));
  const conflicts = open(true);
  const changes = open(false);
  const total = p.files.reduce((n, f) => n + f.hunks.filter((h) => h.kind !== 'conflict').length, 0);
  if (conflicts.length > 0) {
    console.log(`${conflicts.length} conflict(s) unresolved; ${RESOLVE_CHOICES}`);
    console.log(
      `  ${resolveCommand(
        p.id,
        conflicts.map((h) => h.id),
        run,
        changes.length > 0,
      )}`,
    );
  } else if (changes.length > 0)
    console.log(
      `${changes.length} of ${total} hunks undecided. Apply: ${followUp(['apply', p.id, '--accept', 'all'], proposalFlags(run))} (or --accept HUNK_ID,...)`,
    );
}

export async function showCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: common });
  const id = positionals[0];
  if (!id) throw new CliUsageError('show needs a proposal id: memory-studio show ID (memory-studio proposals lists the ids).');
  return reportingFailures(values.json, () =>
    withProposalService(values, id, async (s) => {
      const proposal = await s.call('review.get', { id });
      output(values.json, proposal, () => {
        printProposal(proposal);
        printNextStep(proposal, values);
      });
      return 0;
    }),
  );
}

function printRebase(outcome: RebaseOutcome, run: RunFlags): void {
  for (const f of outcome.files) {
    console.log(`[${f.ord}] ${f.version}/${f.relPath}: ${f.message}`);
    for (const hunkId of f.conflicts) console.log(`      ${hunkId}  CONFLICT`);
  }
  const conflicts = outcome.files.flatMap((f) => f.conflicts);
  if (conflicts.length > 0) {
    console.log(`Resolve: ${RESOLVE_CHOICES}`);
    console.log(`  ${resolveCommand(outcome.proposal.id, conflicts, run, false)}`);
  }
}

/** Exit 0 when everything merged cleanly, 2 while conflicts remain (listed with their hunk ids), 1 on any failure. */
export async function rebaseCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: common });
  const id = positionals[0];
  if (!id) throw new CliUsageError('rebase needs a proposal id: memory-studio rebase ID (memory-studio proposals lists the ids).');
  try {
    return await withProposalService(values, id, async (s) => {
      const outcome = await s.call('review.rebase', { id });
      const conflicts = outcome.files.flatMap((f) =>
        f.conflicts.map((hunkId) => ({ ord: f.ord, version: f.version, relPath: f.relPath, hunkId })),
      );
      output(values.json, { ...outcome, clean: conflicts.length === 0, conflicts }, () => printRebase(outcome, values));
      return conflicts.length === 0 ? 0 : 2;
    });
  } catch (error) {
    return printFailure(values.json, error);
  }
}

export async function historyCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...common, file: { type: 'string' }, version: { type: 'string' } } });
  return withService(values, async (s) => {
    const entries = await s.call('history.list', {
      path: values.file,
      version: values.version === undefined ? undefined : version(values.version),
    });
    output(values.json, entries, () => {
      if (entries.length === 0) console.log('No history yet: applied proposals and changes Codex makes while the app watches appear here.');
      for (const e of entries)
        console.log(`${e.id}  ${new Date(e.at).toISOString()}  ${e.kind}  ${e.summary}  (${e.files.map(where).join(', ')})`);
    });
    return 0;
  });
}

export async function revertCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: common });
  const entryId = positionals[0];
  if (!entryId) throw new CliUsageError('revert needs a history entry id: memory-studio revert ENTRY_ID');
  return withService(values, async (s) => {
    const proposal = await s.call('history.revert', { entryId });
    output(values.json, proposal, () => {
      console.log(`${proposal.id} (a new proposal; review and apply it to revert)`);
      console.log(`Review it: ${followUp(['show', proposal.id], proposalFlags(values))}`);
    });
    return 0;
  });
}
