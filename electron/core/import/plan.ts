// The import plan: per project and file what would be written where, with secrets, targets, removals and exact writes.
import { isAbsolute } from 'node:path';
import type { HomeInfo } from '../../../shared/domain';
import type { FileText, ImportPlan, ImportPlanInput, PlanFile, PlanProject, SkipCode } from '../../../shared/import';
import { StudioFailure } from '../platform/errors';
import { itemAt } from '../platform/indexed';
import { dependsOnRepo, discover, toDetection, type ImportEnv } from './discover';
import { noEarlierImports } from './earlier';
import { indexChoices, planFile, type ChoiceIndex } from './plan-file';
import { inTurns, lintPlannedWritesOf, secretSpansOf, turnsFor } from './plan-scan';
import type { SecretCandidate } from '../lint/secret-rules';
import { markChanges, planRoot, type PlannedWrite, type RootContext, type RootPlan } from './plan-root';
import { sourceHomeOf, type Discovery, type SourceFile, type SourceProject } from './sources';
import { chooseTargets, readTargetState, type TargetState } from './targets';

export { scopeJson, type PlannedWrite } from './plan-root';

export interface PlanBuild {
  plan: ImportPlan;
  writes: PlannedWrite[];
}

interface ProjectCwd {
  cwd: string | null;
  cwdSource: PlanProject['cwdSource'];
  /** Why the person's cwd cannot be used (the project is skipped with it; the rest of the plan goes on). */
  problem: string | null;
}

/**
 * The person's override, else the detected cwd, else the cwd in the `scope.json` an earlier import left: Claude Code
 * prunes session files after about 30 days, and Codex removes only an unscoped target, so a scoped one keeps its cwd.
 */
function projectCwd(source: SourceProject, choices: ChoiceIndex, scopeCwd: string | null): ProjectCwd {
  const override = choices.projects.get(source.key)?.cwd;
  if (typeof override === 'string') {
    const problem = isAbsolute(override)
      ? null
      : `The folder "${override}" given for this project is not an absolute path: enter the full path of the project folder, e.g. /home/me/src/app.`;
    return { cwd: override, cwdSource: 'override', problem };
  }
  if (source.cwd) return { cwd: source.cwd, cwdSource: source.cwdSource, problem: null };
  if (scopeCwd) return { cwd: scopeCwd, cwdSource: 'scope', problem: null };
  return { cwd: null, cwdSource: source.cwdSource, problem: null };
}

/** The absolute cwd of the first target's `scope.json` for `key`, or null (absent, unreadable or not Codex's shape). */
function scopeCwdOf(states: readonly TargetState[], key: string): string | null {
  for (const state of states) {
    const text = state.projects.get(key)?.get('scope.json');
    if (typeof text !== 'string') continue;
    try {
      const cwd = (JSON.parse(text) as { cwd?: unknown } | null)?.cwd;
      if (typeof cwd === 'string' && isAbsolute(cwd)) return cwd;
    } catch {
      // Not JSON: as good as no scope.
    }
  }
  return null;
}

const LEFT_AS_IS = 'What was imported earlier is left as it is.';

/** Refusals of a Markdown file that is there but cannot be read as text now (a non-Markdown file or a symlink Codex ignores too). */
const READ_PROBLEMS: ReadonlySet<SkipCode> = new Set(['unreadable', 'missing', 'locked', 'too-large', 'binary', 'invalid-utf8']);

/** The plan entry of one project, and whether its earlier import must be left untouched (rather than rewritten or emptied). */
function planProject(
  from: Discovery['from'],
  source: SourceProject,
  choices: ChoiceIndex,
  scopeCwd: string | null,
  unreadable: number,
  spans: ReadonlyMap<SourceFile, readonly SecretCandidate[]>,
): { project: PlanProject; untouched: boolean } {
  const included = choices.projects.get(source.key)?.include ?? true;
  const { cwd, cwdSource, problem } = projectCwd(source, choices, scopeCwd);
  const files: PlanFile[] = source.files.map((f) => planFile(from, source.key, f, choices, spans.get(f)));
  let reason: string | null = null;
  let untouched = false;
  if (!included) reason = 'Left out by you.';
  else if (problem) {
    reason = `${problem} ${LEFT_AS_IS}`;
    untouched = true;
  } else if (!cwd) {
    reason = source.goneCwd
      ? `No project folder (cwd) exists here: the newest session records ${source.goneCwd}, which is not a folder on this machine (moved, or another machine's). Enter where the project is now to import it; Codex removes an unscoped import.`
      : 'No project folder (cwd) is known: no session file records one. Enter the folder to import this project; Codex removes an unscoped import.';
  } else if (!files.some((f) => f.status === 'importable')) {
    // A folder emptied of Markdown is gone as far as Codex is concerned; files that cannot be read (or were all left
    // out) are a passing state: emptying the earlier import for them would lose it.
    untouched = source.files.length > 0 || unreadable > 0;
    reason =
      source.files.length === 0 && unreadable > 0
        ? `None of its files can be read now (see the skipped files). ${LEFT_AS_IS}`
        : `None of its files can be imported (see the skipped files).${untouched ? ` ${LEFT_AS_IS}` : ''}`;
  }
  const project: PlanProject = {
    key: source.key,
    cwd,
    detectedCwd: source.cwd,
    cwdSource,
    sourceDir: source.sourceDir,
    included,
    status: reason ? 'skipped' : 'importable',
    reason,
    files,
    change: 'unchanged',
  };
  return { project, untouched };
}

function unresolvedCount(projects: readonly PlanProject[]): number {
  let n = 0;
  for (const p of projects) {
    if (!p.included || p.status !== 'importable') continue;
    for (const f of p.files) if (f.status === 'importable') n += f.findings.filter((x) => x.action === null).length;
  }
  return n;
}

/**
 * When an earlier import's key counts as gone from the source. Never on doubt: not when the source home is missing (a
 * mistyped folder would look like every project was deleted), not when its source was skipped (a locked or missing
 * state.vscdb, an unreadable folder), not outside `--project`, and a key that lives in a repository only when that
 * repository was picked this run and no longer has the source.
 */
function goneRule(discovery: Discovery, filter: ReadonlySet<string> | null): { isGone: (key: string) => boolean; messages: string[] } {
  const missing = discovery.homes.filter((h) => !h.exists);
  if (missing.length > 0) {
    const where = missing.map((h) => h.path).join(', ');
    return {
      isGone: () => false,
      messages: [
        `${where} does not exist, so nothing imported earlier is removed: a wrong folder must not look like every project was deleted.`,
      ],
    };
  }
  const known = new Set(discovery.projects.map((p) => p.key));
  for (const s of discovery.skipped) if (s.projectKey !== null) known.add(s.projectKey);
  const picked = new Set(discovery.pickedKeys);
  const isGone = (key: string) =>
    !known.has(key) && (!filter || filter.has(key)) && (!dependsOnRepo(discovery.from, key) || picked.has(key));
  return { isGone, messages: [] };
}

/** Builds the plan (read only): discovery, choices, targets and the exact writes. */
export async function buildPlan(input: ImportPlanInput, home: HomeInfo, deps: ImportEnv = {}): Promise<PlanBuild> {
  const discovery = await discover(input, deps);
  const choices = indexChoices(input.choices ?? {});
  const filter = input.projects ? new Set(input.projects) : null;
  const { targets, rule } = chooseTargets(home);
  const states = await Promise.all(targets.map((t) => readTargetState(t, deps.sharedLoop !== false)));
  const unreadable = new Map<string, number>();
  for (const s of discovery.skipped)
    if (s.projectKey !== null && READ_PROBLEMS.has(s.code)) unreadable.set(s.projectKey, (unreadable.get(s.projectKey) ?? 0) + 1);
  const sources = discovery.projects.filter((p) => !filter || filter.has(p.key));
  const texts = sources.flatMap((p) => p.files);
  const found = await secretSpansOf(
    texts.map((f) => f.text),
    deps,
  );
  const spans = new Map(texts.map((f, i) => [f, itemAt(found, i)]));
  const turns = turnsFor(deps);
  const planned = await inTurns(
    sources,
    deps,
    (p) => planProject(discovery.from, p, choices, scopeCwdOf(states, p.key), unreadable.get(p.key) ?? 0, spans),
    turns,
  );
  const projects = planned.map((p) => p.project);
  const untouched = new Set(planned.filter((p) => p.untouched).map((p) => p.project.key));
  const gone = goneRule(discovery, filter);
  const ctx: RootContext = {
    from: discovery.from,
    sourceHomes: discovery.sourceHomes,
    projectHomes: new Map(discovery.projects.map((p) => [p.key, sourceHomeOf(p, discovery.sourceHomes[0] ?? '')])),
    earlier: deps.earlier ?? noEarlierImports,
    keepRemoved: input.choices?.keepRemoved === true,
    gone: gone.isGone,
  };
  const roots: RootPlan[] = [];
  for (const [i, t] of targets.entries()) roots.push(await planRoot(ctx, t, itemAt(states, i), projects, untouched, turns));
  await markChanges(projects, roots, turns);
  const writes = roots.flatMap((r) => r.writes);
  const lint = await lintPlannedWritesOf(writes, deps, turns);
  await turns.maybe();
  const messages = [...discovery.messages, ...gone.messages, ...states.flatMap((s) => s.problems)];
  for (const t of targets)
    if (!t.rootExists)
      messages.push(
        `The ${t.version} memory folder ${t.root} does not exist yet; applying the import creates it, as Codex's importer does.`,
      );
  const plan: ImportPlan = {
    from: discovery.from,
    detection: toDetection(discovery),
    targets,
    targetRule: rule,
    projects,
    skipped: discovery.skipped,
    removed: roots.flatMap((r) => r.removed),
    kept: roots.flatMap((r) => r.kept),
    writes: writes.map(({ version, relPath, absPath, change, projectKey, removal }) => ({
      version,
      relPath,
      absPath,
      change,
      projectKey,
      removal,
    })),
    unresolvedFindings: unresolvedCount(projects),
    nothingToImport: writes.length === 0,
    messages,
    textsOmitted: false,
    lint,
  };
  return { plan, writes };
}

/** Above this many files a plan travels without texts (10,000 files made every choice change ship ~20 MB). */
export const INLINE_TEXT_FILES = 300;

/** The plan as the wizard receives it: small plans whole; large ones without file texts (`import.fileText` gives them). */
export function forTransport(plan: ImportPlan): ImportPlan {
  const files = plan.projects.reduce((n, p) => n + p.files.length, 0);
  if (files <= INLINE_TEXT_FILES) return plan;
  return {
    ...plan,
    textsOmitted: true,
    projects: plan.projects.map((p) => ({ ...p, files: p.files.map((f) => ({ ...f, content: null, sourceText: null })) })),
  };
}

/** One file's texts from a full plan; NotFound when the plan has no such file. */
export function fileTextOf(plan: ImportPlan, project: string, relPath: string): FileText {
  const file = plan.projects.find((p) => p.key === project)?.files.find((f) => f.relPath === relPath);
  if (!file)
    throw new StudioFailure('NotFound', `The import plan has no file ${relPath} in project ${project}.`, {
      hint: 'Go back to Sources and scan again.',
    });
  return { content: file.content, sourceText: file.sourceText };
}

export async function planImport(input: ImportPlanInput, home: HomeInfo, deps: ImportEnv = {}): Promise<ImportPlan> {
  return (await buildPlan(input, home, deps)).plan;
}
