// `memory-studio sync init|push|pull|status`: this machine's curated memory to a git remote, and others' as a reviewed import.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { HomeInfo } from '../../shared/domain';
import type { PullResult, PushResult, StatusResult } from '../core/service/use-cases/sync';
import { printFailure } from './cli-decisions';
import { CliUsageError, HOME_HINT, requireFolder } from './cli-errors';
import { cliCodexHome, cliDataDir, cliEnv, cliPath, writeStderr } from './cli-io';
import { proposalFlags, followUp, type RunFlags, withCliPrefix } from './cli-follow-up';
import { printJson } from './cli-output';
import { onStopSignals } from './stop-signals';

const options = {
  remote: { type: 'string' },
  machine: { type: 'string' },
  person: { type: 'string' },
  scope: { type: 'string' },
  'take-over': { type: 'boolean' },
  'codex-home': { type: 'string' },
  'data-dir': { type: 'string' },
  json: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ args: string[]; options: typeof options }>>['values'];

/** Exit status of a push that held files back, or a pull that refused a folder or held a file back (each named). */
export const HELD_BACK_EXIT = 4;

const when = (ms: number | undefined) => (ms === undefined ? 'never' : new Date(ms).toISOString());

/** A remote that is a folder here is recorded as its absolute path (so the clone in the data folder finds it). */
function remoteOf(value: string | undefined): string {
  if (!value)
    throw new CliUsageError('sync init needs --remote URL: any git URL your git can reach, or a folder holding a bare repository.');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^[^/\\]+@[^:]+:/.test(value)) return value;
  const local = cliPath(value);
  return existsSync(local) ? local : value;
}

function scopeOf(value: string | undefined): string | null {
  if (value === undefined) return null;
  const m = /^project=(.+)$/.exec(value);
  if (!m?.[1]) throw new CliUsageError('--scope takes project=DIR (publish only the MEMORY.md entries of that project folder).');
  return cliPath(m[1]);
}

async function commandHome(values: Values): Promise<{ home: HomeInfo; dataDir: string }> {
  const { openCommandHome } = await import('../core/service/use-cases/command-home.js');
  const choice = cliCodexHome(values['codex-home']);
  requireFolder(choice.codexHome, HOME_HINT);
  const dataDir = cliDataDir(values['data-dir']);
  return { home: await openCommandHome(choice, dataDir, (line) => writeStderr(`${line}\n`)), dataDir };
}

function cancellable(): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const signals = onStopSignals(() => controller.abort());
  return { signal: controller.signal, dispose: () => signals.dispose() };
}

const progress = (json: boolean | undefined) => (json ? undefined : (line: string) => writeStderr(`${line}\n`));

function printPush(r: PushResult): void {
  console.log(
    r.changed
      ? `Published ${r.published} file(s) of ${r.version} to ${r.owner}/${r.version} on ${r.remote}${r.retries ? ` (after ${r.retries} retry)` : ''}.`
      : `Nothing new to publish: ${r.owner}/${r.version} on ${r.remote} already holds these ${r.published} file(s).`,
  );
  for (const h of r.heldBack) console.log(`held back: ${h.path}: ${withCliPrefix(h.reason, true)}`);
  if (r.heldBack.length > 0) console.log(`${r.heldBack.length} file(s) held back; nothing secret left this machine.`);
}

function printPull(r: PullResult, run: RunFlags): void {
  for (const a of r.arrivals) {
    if (a.problem) console.log(`refused: ${a.owner}/${a.version}: ${a.problem}`);
    else console.log(`${a.owner}/${a.version}: ${a.files} file(s), ${a.changed} change(s) -> resources/${a.key}/`);
    for (const h of a.heldBack) console.log(`  held back: ${h.path}: ${withCliPrefix(h.reason, true)}`);
  }
  for (const i of r.ignored) console.log(`ignored: ${i}`);
  for (const k of r.removed) console.log(`gone from the remote: resources/${k}/ (its removal is in the proposal)`);
  if (r.proposal) {
    console.log(
      r.reused
        ? `Still pending from the last pull: ${r.proposal.id}: ${r.proposal.title}`
        : `Proposed ${r.proposal.id}: ${r.proposal.title}`,
    );
    if (r.superseded) console.log(`It replaces ${r.superseded} (the earlier pull's proposal, now rejected as superseded).`);
    console.log('Review it in the app, or here:');
    console.log(`  ${followUp(['show', r.proposal.id], proposalFlags(run))}`);
    console.log(`  ${followUp(['apply', r.proposal.id, '--accept', 'all'], proposalFlags(run))}`);
  } else if (r.declined) console.log(`Nothing new arrived since you rejected ${r.declined}; it is proposed again once something changes.`);
  else console.log(r.arrivals.length === 0 ? 'Nothing has arrived: no other machine or person has published yet.' : 'Nothing new arrived.');
}

function printStatus(s: StatusResult, run: RunFlags): void {
  if (!s.configured)
    return console.log(`Sync is not set up for this data folder; run ${followUp(['sync', 'init', '--remote', 'URL'], run)}`);
  console.log(`Remote: ${s.remote}\nThis machine publishes to: ${s.owner}${s.scopeProject ? ` (scope: project ${s.scopeProject})` : ''}`);
  console.log(`Last push: ${when(s.lastPush?.at)}${s.lastPush ? ` (${s.lastPush.published} files)` : ''}`);
  console.log(`Last pull: ${when(s.lastPull?.at)}${s.lastPull?.proposalId ? ` (proposal ${s.lastPull.proposalId})` : ''}`);
  const { added, changed, removed } = s.pending;
  const n = added.length + changed.length + removed.length;
  console.log(
    n === 0
      ? 'Nothing pending to publish.'
      : `Pending to publish: ${added.length} new, ${changed.length} changed, ${removed.length} removed.`,
  );
  for (const p of added) console.log(`  new: ${p}`);
  for (const p of changed) console.log(`  changed: ${p}`);
  for (const p of removed) console.log(`  removed: ${p}`);
  for (const h of s.heldBack) console.log(`held back: ${h.path}: ${withCliPrefix(h.reason, true)}`);
  if (s.others.length > 0) console.log(`Others on the remote: ${s.others.join(', ')}`);
}

async function run(sub: string, values: Values): Promise<number> {
  const uc = await import('../core/service/use-cases/sync.js');
  if (sub === 'init') {
    if (values.machine !== undefined && values.person !== undefined) throw new CliUsageError('Choose one of --machine and --person.');
    const dataDir = cliDataDir(values['data-dir']);
    const settings = await uc.syncInit(
      dataDir,
      {
        remote: remoteOf(values.remote),
        ...(values.machine !== undefined ? { machine: values.machine } : {}),
        ...(values.person !== undefined ? { person: values.person } : {}),
        scopeProject: scopeOf(values.scope),
        ...(values['take-over'] ? { takeOver: true } : {}),
      },
      { progress: progress(values.json) },
    );
    if (values.json) printJson({ ok: true, ...settings });
    else
      console.log(
        `Sync set up: this machine publishes to ${settings.owner} on ${settings.remote}. Next: ${followUp(['sync', 'push'], values)}`,
      );
    return 0;
  }
  if (
    values.remote !== undefined ||
    values.machine !== undefined ||
    values.person !== undefined ||
    values.scope !== undefined ||
    values['take-over'] !== undefined
  )
    throw new CliUsageError(`--remote, --machine, --person and --scope belong to "sync init", not "sync ${sub}".`);
  const { home, dataDir } = await commandHome(values);
  if (sub === 'status') {
    const status = await uc.syncStatus(home, dataDir);
    if (values.json) printJson({ ok: true, ...status });
    else printStatus(status, values);
    return 0;
  }
  const stop = cancellable();
  try {
    if (sub === 'push') {
      const result = await uc.syncPush(home, dataDir, { signal: stop.signal, progress: progress(values.json) });
      if (values.json) printJson({ ok: true, ...result });
      else printPush(result);
      return result.heldBack.length > 0 ? HELD_BACK_EXIT : 0;
    }
    const result = await uc.syncPullForCommand(home, dataDir, { signal: stop.signal, progress: progress(values.json) }, cliEnv());
    if (values.json) printJson({ ok: true, ...result, proposalId: result.proposal?.id ?? null, proposal: undefined });
    else printPull(result, values);
    // As a push: 4 when something did not come in (a refused folder, a held-back file); what passed is proposed.
    const refused = result.ignored.length > 0 || result.arrivals.some((a) => a.problem !== null || a.heldBack.length > 0);
    return refused ? HELD_BACK_EXIT : 0;
  } finally {
    stop.dispose();
  }
}

export async function syncCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== 'init' && sub !== 'push' && sub !== 'pull' && sub !== 'status')
    throw new CliUsageError(`sync needs one of init, push, pull, status${sub ? `, not "${sub}"` : ''}.`);
  const { values } = parseArgs({ args: rest, options });
  try {
    return await run(sub, values);
  } catch (error) {
    return printFailure(values.json, error);
  }
}
