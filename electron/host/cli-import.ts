// `memory-studio import`: plan a Claude Code or Cursor import (the planner on the core, as `import.plan` answers), or
// propose and apply it through the same channels as the wizard; `--from bundle` imports an export bundle the same way.
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { ImportChoices, ImportPlan, ImportPlanInput } from '../../shared/import';
import type { AppliedProposal, Proposal } from '../../shared/review';
import { invalidRequest, StudioFailure } from '../core/platform/errors';
import type { StudioService } from '../core/service/service';
import type { BundleImportSummary } from '../core/service/use-cases/bundle';
import { printFailure } from './cli-decisions';
import { CliUsageError, HOME_HINT, requireFolder } from './cli-errors';
import { printJson } from './cli-output';
import { where } from './cli-where';
import { cwdChoices, cwdOption, printPlan } from './cli-import-plan';
import { cliCodexHome, cliDataDir, cliEnv, cliPath, writeStderr } from './cli-io';
import { proposalFlags, followUp, type RunFlags } from './cli-follow-up';

const options = {
  from: { type: 'string' },
  bundle: { type: 'string' },
  'source-home': { type: 'string' },
  'codex-home': { type: 'string' },
  'data-dir': { type: 'string' },
  project: { type: 'string' },
  repo: { type: 'string' },
  'cursor-db': { type: 'string' },
  plan: { type: 'boolean' },
  apply: { type: 'boolean' },
  'redact-secrets': { type: 'boolean' },
  'skip-secret-files': { type: 'boolean' },
  'keep-removed': { type: 'boolean' },
  cwd: { type: 'string', multiple: true },
  json: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ args: string[]; options: typeof options }>>['values'];

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((x) => x.trim())
        .filter((x) => x !== '');

function inputOf(values: Values): ImportPlanInput {
  if (values.from !== 'claude' && values.from !== 'cursor') throw new CliUsageError('import needs --from claude, cursor or bundle.');
  if (values.bundle !== undefined) throw new CliUsageError('--bundle belongs to --from bundle.');
  if (values.plan === values.apply) throw new CliUsageError('import needs exactly one of --plan and --apply.');
  if (values['redact-secrets'] && values['skip-secret-files'])
    throw new CliUsageError('Choose one of --redact-secrets and --skip-secret-files.');
  // The grammar is `--apply (--redact-secrets | --skip-secret-files)`: applying never stops half way on a finding.
  if (values.apply && !values['redact-secrets'] && !values['skip-secret-files']) {
    throw new CliUsageError(
      '--apply needs --redact-secrets or --skip-secret-files: what to do with each possible secret (see them with --plan).',
    );
  }
  const secretDefault: ImportChoices['secretDefault'] = values['redact-secrets']
    ? 'redact'
    : values['skip-secret-files']
      ? 'skip-file'
      : undefined;
  const cwds = cwdChoices(values.cwd);
  const choices: ImportChoices = {
    ...(cwds.length > 0 ? { projects: cwds } : {}),
    ...(secretDefault ? { secretDefault } : {}),
    ...(values['keep-removed'] ? { keepRemoved: true } : {}),
  };
  return {
    from: values.from,
    ...(values['source-home'] ? { sourceHome: values['source-home'] } : {}),
    ...(values['cursor-db'] ? { cursorStateDb: values['cursor-db'] } : {}),
    ...(list(values.repo) ? { repos: list(values.repo) } : {}),
    ...(list(values.project) ? { projects: list(values.project) } : {}),
    ...(Object.keys(choices).length > 0 ? { choices } : {}),
  };
}

/** The plan without file texts (the wizard previews them; a terminal does not need them). */
function compactPlan(plan: ImportPlan): unknown {
  return {
    ...plan,
    projects: plan.projects.map((p) => ({ ...p, files: p.files.map(({ content: _c, sourceText: _s, ...rest }) => rest) })),
  };
}

/** The `--apply` of this plan, to paste: the same source, projects and folders (secrets redacted unless told to skip). */
function applyCommandOf(values: Values, input: ImportPlanInput): string {
  const words = ['import', '--from', values.from ?? 'claude', '--apply'];
  for (const name of ['source-home', 'cursor-db'] as const) if (values[name]) words.push(`--${name}`, cliPath(values[name]));
  for (const name of ['project', 'repo'] as const) if (values[name]) words.push(`--${name}=${values[name]}`);
  // The `=` forms: a Claude project key starts with '-', which a separate value cannot.
  for (const { key, cwd } of input.choices?.projects ?? []) if (cwd) words.push(`--cwd=${key}=${cwd}`);
  if (values['keep-removed']) words.push('--keep-removed');
  words.push(values['skip-secret-files'] ? '--skip-secret-files' : '--redact-secrets');
  return followUp(words, values);
}

interface ImportApplied {
  proposalId: string | null;
  message: string;
  applied: AppliedProposal | null;
  waitingForCwd?: string[];
}

async function applyImport(s: StudioService, input: ImportPlanInput, run: RunFlags): Promise<ImportApplied> {
  const outcome = await s.call('import.propose', input);
  if (!outcome.proposal) return { proposalId: null, message: outcome.message, applied: null, waitingForCwd: outcome.waitingForCwd };
  return {
    proposalId: outcome.proposal.id,
    message: outcome.message,
    applied: await acceptAndApply(s, outcome.proposal, run),
    waitingForCwd: outcome.waitingForCwd,
  };
}

/** Every hunk of the proposal accepted, then applied (what the wizard's "Import" does); a failure leaves it pending. */
async function acceptAndApply(s: StudioService, proposal: Proposal, run: RunFlags): Promise<AppliedProposal> {
  const id = proposal.id;
  const files = proposal.files.map((f) => ({
    ord: f.ord,
    decisions: Object.fromEntries(f.hunks.map((h) => [h.id, 'accept' as const])),
  }));
  try {
    await s.call('review.decide', { id, files });
    return await s.call('review.apply', { id });
  } catch (error) {
    if (!(error instanceof StudioFailure)) throw error;
    const later = followUp(['apply', id], proposalFlags(run));
    const hint = `${error.hint ? `${error.hint} ` : ''}Proposal ${id} stays pending: "${later}" applies it later.`;
    throw new StudioFailure(error.kind, error.message, { path: error.path, hint, cause: error, fault: error.fault });
  }
}

function printApplied(result: ImportApplied): void {
  if (!result.applied) {
    console.log(result.message);
    for (const key of result.waitingForCwd ?? []) console.log(`  ${key}: ${cwdOption(key)}`);
    return;
  }
  console.log(`Applied import ${result.proposalId} as history entry ${result.applied.entry.id}:`);
  for (const w of result.applied.written) console.log(`  ${w.action === 'delete' ? 'deleted' : 'wrote'} ${where(w)}`);
  for (const l of result.applied.lease)
    if (l.previous === 'pending') console.log(`  Consolidation enqueued: Codex folds the import into its next ${l.version} consolidation.`);
  const waiting = result.waitingForCwd ?? [];
  if (waiting.length > 0)
    console.log(`Not imported: no project folder (cwd) is known here for ${waiting.length === 1 ? 'this project' : 'these projects'}:`);
  for (const key of waiting) console.log(`  ${key}: ${cwdOption(key)}`);
}

/** `--plan` through the plan use case (core/service/use-cases/import-plan.ts: the core directly, no service). */
async function planCommand(values: Values, input: ImportPlanInput): Promise<void> {
  const [{ openCommandHome }, { planImportForCommand }] = await Promise.all([
    import('../core/service/use-cases/command-home.js'),
    import('../core/service/use-cases/import-plan.js'),
  ]);
  // The contract's limits hold here as on the channel (200 repositories, 10,000 projects). A list given on the command
  // line is the input a person can take past them, so the schema (and zod) loads only then.
  if (input.repos || input.projects || input.choices?.projects) {
    const { ImportPlanInputSchema } = await import('../../shared/import.js');
    const checked = ImportPlanInputSchema.safeParse(input);
    if (!checked.success) throw new StudioFailure('Invalid', invalidRequest('import.plan', checked.error.issues));
  }
  const dataDir = cliDataDir(values['data-dir']);
  const home = await openCommandHome(cliCodexHome(values['codex-home']), dataDir, (line) => writeStderr(`${line}\n`));
  const plan = await planImportForCommand(input, home, dataDir, cliEnv());
  if (values.json) printJson(compactPlan(plan));
  else
    printPlan(
      plan,
      (input.choices?.projects ?? []).map((p) => p.key),
      applyCommandOf(values, input),
    );
}

function requireFolders(values: Values, input: ImportPlanInput): void {
  requireFolder(cliCodexHome(values['codex-home']).codexHome, HOME_HINT);
  for (const { key, cwd } of input.choices?.projects ?? [])
    if (cwd) {
      const hint = `Pass --cwd the folder project ${key} is in now: ${cwdOption(key)}.`;
      requireFolder(cwd, hint);
      if (!statSync(cwd).isDirectory()) throw new StudioFailure('Invalid', `${cwd} is not a folder.`, { path: cwd, hint });
    }
  if (values['source-home'])
    requireFolder(
      cliPath(values['source-home']),
      `Pass --source-home the ${values.from === 'cursor' ? 'Cursor' : 'Claude Code'} folder to import from, or leave it out to use the default one.`,
    );
}

/** The flags of the other sources: a bundle's files with a possible secret are held back, so no secret choice applies. */
const NOT_FOR_BUNDLE = [
  'source-home',
  'project',
  'repo',
  'cursor-db',
  'redact-secrets',
  'skip-secret-files',
  'keep-removed',
  'cwd',
] as const;

function bundleOf(values: Values): string {
  if (!values.bundle) throw new CliUsageError('import --from bundle needs --bundle FILE (a .tar.gz "memory-studio export" wrote).');
  if (values.plan === values.apply) throw new CliUsageError('import needs exactly one of --plan and --apply.');
  const foreign = NOT_FOR_BUNDLE.find((k) => values[k] !== undefined);
  if (foreign)
    throw new CliUsageError(
      `--${foreign} does not apply to --from bundle: a bundle's file with a possible secret is held back, never imported.`,
    );
  return cliPath(values.bundle);
}

function printBundle(s: BundleImportSummary): void {
  console.log(`Bundle ${s.bundle}: ${s.version} memory exported ${s.exportedAt}; ${s.files} file(s) verified -> resources/${s.key}/`);
  for (const h of s.exportHeldBack) console.log(`held back when exported: ${h.path}: ${h.reason}`);
  for (const h of s.heldBack) console.log(`held back: ${h.path}: ${h.reason}`);
}

const nothingNew = (s: BundleImportSummary) => `Nothing to import: resources/${s.key}/ already holds exactly this bundle.`;

/** `--from bundle`: read and checked in core (nothing is written for a refused bundle), then applied through the service. */
async function bundleCommand(values: Values): Promise<number> {
  const bundle = bundleOf(values);
  try {
    const [{ openCommandHome }, uc] = await Promise.all([
      import('../core/service/use-cases/command-home.js'),
      import('../core/service/use-cases/bundle.js'),
    ]);
    const choice = cliCodexHome(values['codex-home']);
    requireFolder(choice.codexHome, HOME_HINT);
    requireFolder(bundle, 'Pass --bundle the .tar.gz that "memory-studio export --out FILE" wrote.');
    const dataDir = cliDataDir(values['data-dir']);
    const home = await openCommandHome(choice, dataDir, (line) => writeStderr(`${line}\n`));
    if (values.plan) {
      const summary = await uc.planBundleImport(home, bundle, cliEnv());
      if (values.json) printJson({ ok: true, ...summary });
      else {
        printBundle(summary);
        for (const w of summary.writes) console.log(`  would ${w.action} ${w.version}/${w.relPath}`);
        console.log(summary.writes.length === 0 ? nothingNew(summary) : `${summary.writes.length} file change(s).`);
      }
      return 0;
    }
    const { summary, proposal } = await uc.proposeBundleImport(home, dataDir, bundle, cliEnv());
    const result: ImportApplied = { proposalId: proposal?.id ?? null, message: nothingNew(summary), applied: null };
    if (proposal) {
      const service = (await import('./cli-service.js')).openService(values);
      try {
        result.applied = await acceptAndApply(service, proposal, values);
      } finally {
        service.dispose();
      }
    }
    if (values.json)
      printJson({
        ok: true,
        ...summary,
        proposalId: result.proposalId,
        written: result.applied?.written ?? [],
        lease: result.applied?.lease ?? [],
      });
    else {
      printBundle(summary);
      printApplied(result);
    }
    return 0;
  } catch (error) {
    return printFailure(values.json, error);
  }
}

export async function importCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options });
  if (values.from === 'bundle') return bundleCommand(values);
  const input = inputOf(values);
  if (values.plan) {
    try {
      requireFolders(values, input);
      await planCommand(values, input);
      return 0;
    } catch (error) {
      return printFailure(values.json, error);
    }
  }
  // Apply goes through the service's channels (propose, decide, apply: what the wizard does); the plan above does not.
  const service = (await import('./cli-service.js')).openService(values);
  try {
    requireFolders(values, input);
    const result = await applyImport(service, input, values);
    if (values.json)
      printJson({
        ok: true,
        proposalId: result.proposalId,
        nothingToImport: result.applied === null,
        message: result.message,
        waitingForCwd: result.waitingForCwd ?? [],
        written: result.applied?.written ?? [],
        lease: result.applied?.lease ?? [],
      });
    else printApplied(result);
    return 0;
  } catch (error) {
    // The same words and exit codes as apply: 2 conflict, 3 locked, 1 anything else.
    return printFailure(values.json, error);
  } finally {
    service.dispose();
  }
}
