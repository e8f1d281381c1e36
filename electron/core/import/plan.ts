// The import plan: per project and file what would be written where, with secrets, targets, removals and exact writes.
import { isAbsolute, join } from 'node:path';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { ImportPlan, ImportPlanInput, ImportTarget, PlanFile, PlanProject, RemovedProject, TargetChange, TargetWrite } from '../../../shared/import';
import type { FileProvenance } from '../../../shared/review';
import { StudioFailure } from '../errors';
import { discover, ownsKey, toDetection, type ImportEnv } from './discover';
import { IMPORT_INSTRUCTIONS, IMPORT_INSTRUCTIONS_PATH, IMPORT_RESOURCES_DIR } from './instructions';
import { indexChoices, planFile, type ChoiceIndex } from './plan-file';
import type { Discovery, SourceProject } from './sources';
import { chooseTargets, readTargetState, type TargetState } from './targets';

/** One file the proposal carries: its content (null = delete) and, for imported files, where it came from. */
export interface PlannedWrite extends TargetWrite {
  root: string;
  content: string | null;
  provenance: FileProvenance | null;
}

export interface PlanBuild {
  plan: ImportPlan;
  writes: PlannedWrite[];
}

/** Compact JSON as Codex writes it: `{"cwd":"<abs>"}`. */
export function scopeJson(cwd: string): string {
  return JSON.stringify({ cwd });
}

function projectCwd(source: SourceProject, choices: ChoiceIndex): { cwd: string | null; cwdSource: PlanProject['cwdSource'] } {
  const override = choices.projects.get(source.key)?.cwd;
  if (typeof override === 'string') {
    if (!isAbsolute(override)) {
      throw new StudioFailure('Invalid', `The folder "${override}" given for project ${source.key} is not an absolute path.`, { hint: 'Enter the full path of the project folder, e.g. /home/me/src/app.' });
    }
    return { cwd: override, cwdSource: 'override' };
  }
  return { cwd: source.cwd, cwdSource: source.cwdSource };
}

function planProject(from: Discovery['from'], source: SourceProject, choices: ChoiceIndex): PlanProject {
  const included = choices.projects.get(source.key)?.include ?? true;
  const { cwd, cwdSource } = projectCwd(source, choices);
  const files: PlanFile[] = source.files.map((f) => planFile(from, source.key, f, choices));
  let reason: string | null = null;
  if (!included) reason = 'Left out by you.';
  else if (!cwd) reason = 'No project folder (cwd) is known: no session file records one. Enter the folder to import this project; Codex removes an unscoped import.';
  else if (!files.some((f) => f.status === 'importable')) reason = 'None of its files can be imported (see the skipped files).';
  return { key: source.key, cwd, detectedCwd: source.cwd, cwdSource, sourceDir: source.sourceDir, included, status: reason ? 'skipped' : 'importable', reason, files, change: 'unchanged' };
}

interface RootPlan {
  target: ImportTarget;
  writes: PlannedWrite[];
  removed: RemovedProject[];
}

function changeOf(current: string | null | undefined, next: string | null): TargetChange {
  if (next === null) return current === undefined ? 'unchanged' : 'delete';
  if (current === undefined) return 'create';
  return current === next ? 'unchanged' : 'modify';
}

function provenanceOf(from: Discovery['from'], version: MemoryVersion, relPath: string, file: PlanFile): FileProvenance {
  return { version, relPath, tool: from, sourcePath: file.sourcePath, sourceMtimeMs: file.mtimeMs, sourceSha256: file.sha256 };
}

/** Desired files of one imported project under one root: scope.json plus every importable file; leftovers are deleted. */
function projectWrites(from: Discovery['from'], target: ImportTarget, project: PlanProject, current: Map<string, string | null> | undefined): PlannedWrite[] {
  const base = `${IMPORT_RESOURCES_DIR}/${project.key}`;
  const write = (rel: string, content: string | null, provenance: FileProvenance | null): PlannedWrite => ({
    version: target.version,
    root: target.root,
    relPath: `${base}/${rel}`,
    absPath: join(target.root, ...`${base}/${rel}`.split('/')),
    change: changeOf(current?.get(rel), content),
    projectKey: project.key,
    content,
    provenance,
  });
  const out: PlannedWrite[] = [];
  const keep = new Set<string>();
  if (project.status === 'importable' && project.cwd) {
    out.push(write('scope.json', scopeJson(project.cwd), null));
    keep.add('scope.json');
    for (const f of project.files.filter((x) => x.status === 'importable' && x.content !== null)) {
      out.push(write(f.relPath, f.content, provenanceOf(from, target.version, `${base}/${f.relPath}`, f)));
      keep.add(f.relPath);
    }
  }
  for (const rel of current?.keys() ?? []) if (!keep.has(rel)) out.push(write(rel, null, null));
  return out;
}

function planRoot(from: Discovery['from'], target: ImportTarget, state: TargetState, projects: readonly PlanProject[], gone: (key: string) => boolean): RootPlan {
  const writes: PlannedWrite[] = [];
  for (const p of projects.filter((x) => x.included)) writes.push(...projectWrites(from, target, p, state.projects.get(p.key)));
  const removed: RemovedProject[] = [];
  for (const [key, files] of state.projects) {
    if (!ownsKey(from, key) || !gone(key)) continue;
    const dir = `${IMPORT_RESOURCES_DIR}/${key}`;
    removed.push({ key, version: target.version, targetDir: join(target.root, ...dir.split('/')), files: [...files.keys()] });
    for (const rel of files.keys()) {
      writes.push({ version: target.version, root: target.root, relPath: `${dir}/${rel}`, absPath: join(target.root, ...`${dir}/${rel}`.split('/')), change: 'delete', projectKey: key, content: null, provenance: null });
    }
  }
  const changed = writes.some((w) => w.change !== 'unchanged');
  if ((changed || projects.some((p) => p.included && p.status === 'importable')) && state.instructions !== IMPORT_INSTRUCTIONS) {
    const change = state.instructions === null ? 'create' : 'modify';
    writes.unshift({ version: target.version, root: target.root, relPath: IMPORT_INSTRUCTIONS_PATH, absPath: join(target.root, ...IMPORT_INSTRUCTIONS_PATH.split('/')), change, projectKey: null, content: IMPORT_INSTRUCTIONS, provenance: null });
  }
  return { target, writes: writes.filter((w) => w.change !== 'unchanged'), removed };
}

/** Each file's and project's change across every target (create beats modify beats delete beats unchanged). */
function markChanges(projects: PlanProject[], roots: readonly RootPlan[]): void {
  const rank: Record<TargetChange, number> = { unchanged: 0, delete: 1, modify: 2, create: 3 };
  const byPath = new Map<string, TargetChange>();
  const byProject = new Map<string, TargetChange[]>();
  for (const w of roots.flatMap((r) => r.writes)) {
    const prev = byPath.get(w.relPath);
    if (!prev || rank[w.change] > rank[prev]) byPath.set(w.relPath, w.change);
    if (!w.projectKey) continue;
    const list = byProject.get(w.projectKey);
    if (list) list.push(w.change);
    else byProject.set(w.projectKey, [w.change]);
  }
  for (const p of projects) {
    const base = `${IMPORT_RESOURCES_DIR}/${p.key}/`;
    for (const f of p.files) f.change = byPath.get(base + f.relPath) ?? 'unchanged';
    const changes = byProject.get(p.key) ?? [];
    p.change = changes.length === 0 ? 'unchanged' : changes.every((c) => c === 'create') ? 'create' : 'update';
  }
}

function unresolvedCount(projects: readonly PlanProject[]): number {
  let n = 0;
  for (const p of projects) {
    if (!p.included || p.status !== 'importable') continue;
    for (const f of p.files) if (f.status === 'importable') n += f.findings.filter((x) => x.action === null).length;
  }
  return n;
}

/** Builds the plan (read only): discovery, choices, targets and the exact writes. */
export async function buildPlan(input: ImportPlanInput, home: HomeInfo, deps: ImportEnv = {}): Promise<PlanBuild> {
  const discovery = await discover(input, deps);
  const choices = indexChoices(input.choices ?? {});
  const filter = input.projects ? new Set(input.projects) : null;
  const projects = discovery.projects.filter((p) => !filter || filter.has(p.key)).map((p) => planProject(discovery.from, p, choices));
  const { targets, rule } = chooseTargets(home);
  const states = await Promise.all(targets.map((t) => readTargetState(t)));
  const known = new Set(discovery.projects.map((p) => p.key));
  const gone = (key: string) => !known.has(key) && (!filter || filter.has(key));
  const roots = targets.map((t, i) => planRoot(discovery.from, t, states[i] as TargetState, projects, gone));
  markChanges(projects, roots);
  const writes = roots.flatMap((r) => r.writes);
  const messages = [...discovery.messages, ...states.flatMap((s) => s.problems)];
  for (const t of targets) if (!t.rootExists) messages.push(`The ${t.version} memory folder ${t.root} does not exist yet; the import creates it, as Codex's importer does.`);
  const plan: ImportPlan = {
    from: discovery.from,
    detection: toDetection(discovery),
    targets,
    targetRule: rule,
    projects,
    skipped: discovery.skipped,
    removed: roots.flatMap((r) => r.removed),
    writes: writes.map(({ version, relPath, absPath, change, projectKey }) => ({ version, relPath, absPath, change, projectKey })),
    unresolvedFindings: unresolvedCount(projects),
    nothingToImport: writes.length === 0,
    messages,
  };
  return { plan, writes };
}

export async function planImport(input: ImportPlanInput, home: HomeInfo, deps: ImportEnv = {}): Promise<ImportPlan> {
  return (await buildPlan(input, home, deps)).plan;
}
