// `import --plan` in the terminal: each project and file labelled by what `--apply` would do with it, a `--cwd` to paste
// for a project whose folder is unknown here, and a last line saying what `--apply` would do. Also `--cwd KEY=DIR`,
// which becomes the wizard's own cwd choice (`choices.projects[].cwd` of the plan input): one way into the planner.
import { waitsForCwd, type ImportChoices, type ImportPlan, type PlanFile, type PlanProject, type TargetChange } from '../../shared/import';
import { realpathSync } from 'node:fs';
import { CliUsageError } from './cli-errors';
import { cliPath } from './cli-io';

type ProjectChoice = NonNullable<ImportChoices['projects']>[number];

const CWD_EXAMPLE = "--cwd='-home-me-app=/home/me/src/app'";

/**
 * The folder as sessions name it: detected cwds pass through realpath, so a `--cwd` through a symlink (macOS's /tmp, a
 * linked ~/src) is resolved the same way. A folder that is not there stays as given: the command refuses it by name.
 */
function canonicalFolder(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** `--cwd KEY=DIR`, repeatable: the folder a project is in now (relative folders resolve against this one). */
export function cwdChoices(given: readonly string[] | undefined): ProjectChoice[] {
  const choices: ProjectChoice[] = [];
  for (const item of given ?? []) {
    const at = item.indexOf('=');
    const key = at > 0 ? item.slice(0, at).trim() : '';
    const dir = at > 0 ? item.slice(at + 1).trim() : '';
    if (key === '' || dir === '')
      throw new CliUsageError(`--cwd "${item}" needs PROJECT_KEY=DIR (the key as --plan prints it), e.g. ${CWD_EXAMPLE}.`);
    if (choices.some((c) => c.key === key)) throw new CliUsageError(`--cwd names ${key} twice; give each project one folder.`);
    choices.push({ key, cwd: canonicalFolder(cliPath(dir)) });
  }
  return choices;
}

/** What to paste for a project without a folder here (`=` form: a Claude key starts with `-`). */
export const cwdOption = (key: string): string => `--cwd='${key}=/path/to/project'`;

const FILE_LABEL: Record<TargetChange, string> = { create: 'new', modify: 'changed', delete: 'removed', unchanged: 'unchanged' };
const PROJECT_LABEL: Record<PlanProject['change'], string> = { create: 'new', update: 'changed', unchanged: 'unchanged' };

/**
 * A skipped project writes nothing, so its rows carry `unchanged`: said as is, a first plan whose projects all lack a
 * folder here read as if everything were imported already. Its files are new to Codex until it has one.
 */
function fileLabel(p: PlanProject, f: PlanFile): string {
  if (waitsForCwd(p) && f.status === 'importable') return 'new, waits for --cwd';
  return FILE_LABEL[f.change];
}

function printProject(p: PlanProject): void {
  const label = waitsForCwd(p) ? 'waits for --cwd' : PROJECT_LABEL[p.change];
  console.log(`${p.key}  cwd=${p.cwd ?? '(none)'}  ${p.status}${p.reason ? `: ${p.reason}` : ''}  [${label}]`);
  if (waitsForCwd(p)) console.log(`  To import it, give the folder it is in now: ${cwdOption(p.key)}`);
  for (const f of p.files) {
    console.log(`  ${f.relPath}  ${f.kind}  ${f.size} B  ${f.status}${f.reason ? `: ${f.reason}` : ''}  [${fileLabel(p, f)}]`);
    for (const s of f.findings) console.log(`    line ${s.line}:${s.column}  ${s.rule}  ${s.preview}  -> ${s.action ?? 'unresolved'}`);
  }
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function secretsSummary(plan: ImportPlan, taken: readonly PlanProject[]): string {
  if (plan.unresolvedFindings > 0)
    return `secrets: ${plan.unresolvedFindings} unresolved, so --apply needs --redact-secrets (replace each) or --skip-secret-files (leave those files out)`;
  const findings = taken.flatMap((p) => p.files.flatMap((f) => f.findings));
  if (findings.length === 0) return 'secrets: none found';
  const redacted = findings.filter((s) => s.action === 'redact').length;
  const left = taken.flatMap((p) => p.files).filter((f) => f.findings.some((s) => s.action === 'skip-file')).length;
  return `secrets: ${redacted} redacted, ${plural(left, 'file')} with one left out`;
}

/** The plan's last line: what `--apply` would do (files counted once, whatever the number of targets). */
export function applySummary(plan: ImportPlan): string {
  const waiting = plan.projects.filter(waitsForCwd);
  const wait =
    waiting.length === 0
      ? ''
      : `${plural(waiting.length, 'project')} (${plural(
          waiting.reduce((n, p) => n + p.files.length, 0),
          'file',
        )}) wait for --cwd (see above)`;
  if (plan.nothingToImport)
    return wait ? `Nothing to import yet: ${wait}; --apply now would change nothing.` : 'Nothing to import: --apply would change nothing.';
  const taken = plan.projects.filter((p) => p.included && p.status === 'importable');
  const files = taken.flatMap((p) => p.files);
  const count = (change: TargetChange) => files.filter((f) => f.change === change).length;
  const removed = new Set(plan.writes.filter((w) => w.change === 'delete').map((w) => w.relPath)).size;
  const versions = plan.targets.map((t) => t.version).join(' and ');
  const what = [
    `${plural(count('create'), 'new file')} and ${plural(count('modify'), 'changed one')}`,
    ...(removed > 0 ? [`${plural(removed, 'removal')}`] : []),
  ].join(', ');
  return (
    `--apply would propose ${what} into ${versions} (${plural(plan.writes.length, 'file write')} in all), ` +
    `accept and apply them; ${secretsSummary(plan, taken)}${wait ? `; ${wait}` : ''}.`
  );
}

/** The plan, its notes, the `--apply` command to paste (when it would do something), and what it would do, last. */
export function printPlan(plan: ImportPlan, cwdKeys: readonly string[], applyCommand: string): void {
  console.log(`Targets: ${plan.targets.map((t) => `${t.version} ${t.extensionDir}`).join(', ')} (${plan.targetRule})`);
  for (const p of plan.projects) printProject(p);
  for (const r of plan.removed)
    console.log(
      `removed (imported from this source, which is gone): ${r.version} ${r.key} (${r.files.length} files); --keep-removed keeps them`,
    );
  for (const k of plan.kept)
    console.log(
      `kept: ${k.why === 'kept-by-you' ? 'kept by you' : 'from another source'}: ${k.version} ${k.key} (${k.files.length} files). ${k.reason}`,
    );
  for (const s of plan.skipped) console.log(`skipped ${s.code}: ${s.reason}`);
  for (const m of plan.messages) console.log(`note: ${m}`);
  const known = new Set(plan.projects.map((p) => p.key));
  for (const key of cwdKeys.filter((k) => !known.has(k)))
    console.log(`note: --cwd names ${key}, which is not a project of this plan (the keys are the first word of each project line).`);
  if (!plan.nothingToImport) console.log(`Import it: ${applyCommand}`);
  console.log(applySummary(plan));
}
