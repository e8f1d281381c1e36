// The review family of CLI commands (propose, note, show, rebase, apply, history, revert): the same channels as the app.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { MemoryVersion } from '../../shared/domain';
import type { DecisionMap, Hunk, Proposal, RebaseOutcome } from '../../shared/review';
import { StudioFailure } from '../core/errors';
import type { StudioService } from '../core/service';
import { CliUsageError, openService } from './cli-inspect';
import { printJson } from './cli-output';

const common = { 'codex-home': { type: 'string' }, 'data-dir': { type: 'string' }, json: { type: 'boolean' } } as const;

async function withService<T>(values: { 'codex-home'?: string; 'data-dir'?: string }, fn: (s: StudioService) => Promise<T>): Promise<T> {
  const service = openService(values);
  try {
    return await fn(service);
  } finally {
    service.dispose();
  }
}

function version(value: string | undefined): MemoryVersion | undefined {
  if (value === undefined || value === 'v1' || value === 'v2') return value;
  throw new CliUsageError(`--version must be v1 or v2, not "${value}".`);
}

/** `--version`, else the version Codex uses for new sessions (memories.version; v2 when it is not set). */
async function targetVersion(s: StudioService, value: string | undefined): Promise<MemoryVersion> {
  return version(value) ?? (await s.call('home.get', {})).config.memories.version;
}

function hunkLine(h: Hunk, decision: string | undefined): string {
  const range = `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`;
  if (h.kind !== 'conflict') return `      ${h.id}  ${range}  ${decision ?? 'undecided'}`;
  const resolved = decision ? `resolved: ${decision}` : 'UNRESOLVED (--resolve HUNK=theirs|ours|both)';
  return `      ${h.id}  ${range}  CONFLICT with the disk, ${resolved}`;
}

/** `v1/MEMORY.md` for a memory file; the full path of a project's AGENTS.md. */
export function where(f: { version: MemoryVersion; target: 'memory' | 'project'; root: string; relPath: string }): string {
  return f.target === 'project' ? `${f.root}/${f.relPath} (project)` : `${f.version}/${f.relPath}`;
}

export function printProposal(p: Proposal): void {
  console.log(`${p.id}  ${p.status}  ${p.source}  "${p.title}"  +${p.added} -${p.removed}`);
  for (const f of p.files) {
    console.log(`  [${f.ord}] ${where(f)} (${f.change}, +${f.added} -${f.removed}${f.rebase ? ', rebased' : ''})`);
    for (const h of f.hunks) console.log(hunkLine(h, f.decisions[h.id]));
  }
  for (const c of p.dbChanges) console.log(`  db ${c.db}: ${c.description}`);
}

const output = (json: boolean | undefined, value: unknown, human: () => void) => (json ? printJson(value) : human());

export async function proposeCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...common, version: { type: 'string' }, file: { type: 'string' }, 'content-file': { type: 'string' }, title: { type: 'string' } } });
  if (!values.file || !values['content-file']) throw new CliUsageError('propose needs --file REL and --content-file F.');
  const content = await readFile(values['content-file'], 'utf8');
  return withService(values, async (s) => {
    const proposal = await s.call('review.propose', { version: await targetVersion(s, values.version), path: values.file as string, content, title: values.title });
    output(values.json, proposal, () => console.log(proposal.id));
    return 0;
  });
}

export async function noteCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...common, version: { type: 'string' }, slug: { type: 'string' }, 'text-file': { type: 'string' } } });
  if (!values.slug || !values['text-file']) throw new CliUsageError('note needs --slug S and --text-file F.');
  const text = await readFile(values['text-file'], 'utf8');
  return withService(values, async (s) => {
    const proposal = await s.call('review.note', { version: await targetVersion(s, values.version), slug: values.slug as string, text });
    output(values.json, proposal, () => console.log(proposal.id));
    return 0;
  });
}

/** `forget THREAD_ID`: Codex's own "forget this session" as a proposal of Codex-DB changes (nothing changes until applied). */
export async function forgetCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: common });
  const threadId = positionals[0];
  if (!threadId || positionals.length > 1) throw new CliUsageError('forget needs exactly one THREAD_ID (the session id from Codex, e.g. from inspect or the session file name).');
  return withService(values, async (s) => {
    const proposal = await s.call('review.forget', { threadId });
    output(values.json, proposal, () => {
      console.log(proposal.id);
      for (const c of proposal.dbChanges) console.log(`  db ${c.db}: ${c.description}`);
    });
    return 0;
  });
}

export async function showCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: common });
  const id = positionals[0];
  if (!id) throw new CliUsageError('show needs a proposal id: memory-studio show ID');
  return withService(values, async (s) => {
    const proposal = await s.call('review.get', { id });
    output(values.json, proposal, () => printProposal(proposal));
    return 0;
  });
}

/** Exit codes the issue fixes: 0 applied, 2 conflict, 3 locked, 1 anything else. */
function exitCodeOf(error: unknown): number {
  if (error instanceof StudioFailure && error.kind === 'Conflict') return 2;
  if (error instanceof StudioFailure && error.kind === 'Locked') return 3;
  return 1;
}

function printFailure(json: boolean | undefined, error: unknown): number {
  if (error instanceof CliUsageError) throw error;
  const failure = error as StudioFailure;
  const message = error instanceof Error ? error.message : String(error);
  if (json) printJson({ ok: false, error: { kind: failure.kind ?? 'Internal', message, path: failure.path, hint: failure.hint } }, false);
  else console.error(`${message}${failure.hint ? `\n${failure.hint}` : ''}`);
  return exitCodeOf(error);
}

const RESOLUTIONS = new Set(['theirs', 'ours', 'both']);

/** `--resolve h1=theirs,h2=both`: conflict hunks only (edit by hand is for the app, or `review.decide` over serve). */
function parseResolve(value: string | undefined, conflicts: ReadonlySet<string>, id: string): Map<string, 'theirs' | 'ours' | 'both'> {
  const out = new Map<string, 'theirs' | 'ours' | 'both'>();
  if (value === undefined) return out;
  for (const item of value.split(',').map((x) => x.trim()).filter(Boolean)) {
    const [hunk, choice] = item.split('=') as [string, string | undefined];
    if (!choice || !RESOLUTIONS.has(choice)) throw new CliUsageError(`--resolve takes HUNK=theirs|ours|both, not "${item}".`);
    if (!conflicts.has(hunk)) throw new CliUsageError(`${hunk} is not a conflict hunk of ${id}. "memory-studio show ${id}" lists the conflicts.`);
    out.set(hunk, choice as 'theirs' | 'ours' | 'both');
  }
  return out;
}

/**
 * `--accept` decides change hunks (the others are rejected) and never a conflict; `--resolve` decides conflicts.
 * Decisions not named keep what was stored.
 */
function decisionsFor(proposal: Proposal, accept: string | undefined, resolve: string | undefined): Array<{ ord: number; decisions: DecisionMap }> | null {
  const hunks = proposal.files.flatMap((f) => f.hunks);
  const conflicts = new Set(hunks.filter((h) => h.kind === 'conflict').map((h) => h.id));
  const changes = new Set(hunks.filter((h) => h.kind !== 'conflict').map((h) => h.id));
  const chosen = accept === undefined ? null : new Set(accept === 'all' ? changes : accept.split(',').map((x) => x.trim()));
  const named = [...(chosen ?? [])];
  const asConflict = named.filter((h) => conflicts.has(h));
  if (asConflict.length > 0) throw new CliUsageError(`${asConflict.join(', ')} ${asConflict.length === 1 ? 'is a conflict' : 'are conflicts'}: accepting does not resolve ${asConflict.length === 1 ? 'it' : 'them'}; use --resolve HUNK=theirs|ours|both.`);
  const unknown = named.filter((h) => !changes.has(h));
  if (unknown.length > 0) throw new CliUsageError(`Unknown hunk ids: ${unknown.join(', ')}. "memory-studio show ${proposal.id}" lists them.`);
  const resolutions = parseResolve(resolve, conflicts, proposal.id);
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

export async function applyCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { ...common, accept: { type: 'string' }, resolve: { type: 'string' } } });
  const id = positionals[0];
  if (!id) throw new CliUsageError('apply needs a proposal id: memory-studio apply ID [--accept all | --accept HUNK_ID,...] [--resolve HUNK=theirs|ours|both,...]');
  return withService(values, async (s) => {
    try {
      const proposal = await s.call('review.get', { id });
      const files = decisionsFor(proposal, values.accept, values.resolve);
      if (files) await s.call('review.decide', { id, files });
      const applied = await s.call('review.apply', { id });
      output(values.json, applied, () => {
        console.log(`Applied ${id} as history entry ${applied.entry.id}:`);
        for (const w of applied.written) console.log(`  ${w.action === 'delete' ? 'deleted' : 'wrote'} ${where(w)}`);
        for (const p of applied.alreadyInPlace) console.log(`  already in place: ${p}`);
        for (const l of applied.lease) if (l.previous === 'pending') console.log(`  Codex will fold the change into its next ${l.version} consolidation.`);
      });
      return 0;
    } catch (error) {
      return printFailure(values.json, error);
    }
  });
}

function printRebase(outcome: RebaseOutcome): void {
  for (const f of outcome.files) {
    console.log(`[${f.ord}] ${f.version}/${f.relPath}: ${f.message}`);
    for (const hunkId of f.conflicts) console.log(`      ${hunkId}  CONFLICT: memory-studio apply ${outcome.proposal.id} --resolve ${hunkId}=theirs|ours|both`);
  }
}

/** Exit 0 when everything merged cleanly, 2 while conflicts remain (listed with their hunk ids), 1 on any failure. */
export async function rebaseCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: common });
  const id = positionals[0];
  if (!id) throw new CliUsageError('rebase needs a proposal id: memory-studio rebase ID');
  return withService(values, async (s) => {
    try {
      const outcome = await s.call('review.rebase', { id });
      const conflicts = outcome.files.flatMap((f) => f.conflicts.map((hunkId) => ({ ord: f.ord, version: f.version, relPath: f.relPath, hunkId })));
      output(values.json, { ...outcome, clean: conflicts.length === 0, conflicts }, () => printRebase(outcome));
      return conflicts.length === 0 ? 0 : 2;
    } catch (error) {
      return printFailure(values.json, error);
    }
  });
}

export async function historyCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { ...common, file: { type: 'string' }, version: { type: 'string' } } });
  return withService(values, async (s) => {
    const entries = await s.call('history.list', { path: values.file, version: values.version === undefined ? undefined : version(values.version) });
    output(values.json, entries, () => {
      if (entries.length === 0) console.log('No history yet: applied proposals and changes Codex makes while the app watches appear here.');
      for (const e of entries) console.log(`${e.id}  ${new Date(e.at).toISOString()}  ${e.kind}  ${e.summary}  (${e.files.map(where).join(', ')})`);
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
    output(values.json, proposal, () => console.log(`${proposal.id} (a new proposal; review and apply it to revert)`));
    return 0;
  });
}
