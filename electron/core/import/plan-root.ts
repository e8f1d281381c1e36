// One target root of the import plan: the exact writes, and which earlier imports are this source's own to remove.
import { join } from 'node:path';
import type { MemoryVersion } from '../../../shared/domain';
import type {
  ImportSource,
  ImportTarget,
  KeptImport,
  PlanFile,
  PlanProject,
  RemovedProject,
  TargetChange,
  TargetWrite,
} from '../../../shared/import';
import type { FileProvenance } from '../../../shared/review';
import { ownsKey } from './discover';
import { type EarlierImports, headerSource, sameSource } from './earlier';
import { IMPORT_INSTRUCTIONS, IMPORT_INSTRUCTIONS_PATH, IMPORT_RESOURCES_DIR, SYNC_KEY_PREFIX } from './instructions';
import type { TargetState } from './targets';
import { TOOL_NAMES } from './title';

/** One file the proposal carries: its content (null = delete) and, for imported files, where it came from. */
export interface PlannedWrite extends TargetWrite {
  root: string;
  content: string | null;
  provenance: FileProvenance | null;
}

export interface RootPlan {
  target: ImportTarget;
  writes: PlannedWrite[];
  removed: RemovedProject[];
  kept: KeptImport[];
}

/** What a root's plan needs to know about this run: the source, its homes, the person's switch, the records. */
export interface RootContext {
  from: ImportSource;
  sourceHomes: readonly string[];
  /** Per project key, the source home it is read from this run. */
  projectHomes: ReadonlyMap<string, string>;
  earlier: EarlierImports;
  keepRemoved: boolean;
  gone: (key: string) => boolean;
}

/** Compact JSON as Codex writes it: `{"cwd":"<abs>"}`. */
export function scopeJson(cwd: string): string {
  return JSON.stringify({ cwd });
}

function changeOf(current: string | null | undefined, next: string | null): TargetChange {
  if (next === null) return current === undefined ? 'unchanged' : 'delete';
  if (current === undefined) return 'create';
  return current === next ? 'unchanged' : 'modify';
}

/**
 * Whether an earlier import of `key` in this root is this source's own, from our provenance records (or, for Cursor, the
 * header line every imported file carries). Unknown origin is never ours: Codex's own importer records nothing.
 */
function ownership(
  ctx: RootContext,
  version: MemoryVersion,
  key: string,
  files: ReadonlyMap<string, string | null>,
): { ours: true } | { ours: false; reason: string } {
  if (key.startsWith(SYNC_KEY_PREFIX))
    return { ours: false, reason: 'Arrived through sync from another machine or person; only sync updates it.' };
  if (!ownsKey(ctx.from, key)) {
    const other = ctx.from === 'claude' ? 'cursor' : 'claude';
    return { ours: false, reason: `Imported from ${TOOL_NAMES[other]}, not from ${TOOL_NAMES[ctx.from]}.` };
  }
  const earlier = ctx.earlier(version, key) ?? (ctx.from === 'cursor' ? headerSource(files) : null);
  if (!earlier)
    return {
      ours: false,
      reason: "No import of it is recorded here: Codex's own importer, another Memory Studio data folder, or a hand copy wrote it.",
    };
  if (sameSource(earlier, ctx.from, ctx.sourceHomes)) return { ours: true };
  const where = earlier.sourceHome ?? earlier.sourcePaths[0] ?? 'elsewhere';
  return { ours: false, reason: `Imported from ${where}, not from ${ctx.sourceHomes[0] ?? 'this source'}.` };
}

function writeOf(
  target: ImportTarget,
  projectKey: string | null,
  relPath: string,
  change: TargetChange,
  content: string | null,
  provenance: FileProvenance | null,
  removal = false,
): PlannedWrite {
  return {
    version: target.version,
    root: target.root,
    relPath,
    absPath: join(target.root, ...relPath.split('/')),
    change,
    projectKey,
    content,
    provenance,
    removal,
  };
}

function provenanceOf(ctx: RootContext, version: MemoryVersion, relPath: string, project: PlanProject, file: PlanFile): FileProvenance {
  return {
    version,
    relPath,
    tool: ctx.from,
    sourcePath: file.sourcePath,
    sourceMtimeMs: file.mtimeMs,
    sourceSha256: file.sha256,
    sourceHome: ctx.projectHomes.get(project.key) ?? null,
  };
}

/**
 * Desired files of one imported project under one root: scope.json plus every importable file. Files of the earlier
 * import that the source no longer has are deleted only when that import was this source's own.
 */
function projectWrites(
  ctx: RootContext,
  target: ImportTarget,
  project: PlanProject,
  current: Map<string, string | null> | undefined,
  plan: RootPlan,
): void {
  const base = `${IMPORT_RESOURCES_DIR}/${project.key}`;
  const keep = new Set<string>();
  const write = (rel: string, content: string | null, provenance: FileProvenance | null) =>
    plan.writes.push(writeOf(target, project.key, `${base}/${rel}`, changeOf(current?.get(rel), content), content, provenance));
  if (project.status === 'importable' && project.cwd) {
    write('scope.json', scopeJson(project.cwd), null);
    keep.add('scope.json');
    for (const f of project.files.filter((x) => x.status === 'importable' && x.content !== null)) {
      write(f.relPath, f.content, provenanceOf(ctx, target.version, `${base}/${f.relPath}`, project, f));
      keep.add(f.relPath);
    }
  }
  const leftovers = [...(current?.keys() ?? [])].filter((rel) => !keep.has(rel));
  if (leftovers.length === 0 || !current) return;
  const owner = ownership(ctx, target.version, project.key, current);
  if (owner.ours) for (const rel of leftovers) write(rel, null, null);
  else
    plan.kept.push({
      key: project.key,
      version: target.version,
      targetDir: join(target.root, ...base.split('/')),
      files: leftovers,
      why: 'from-another-source',
      reason: owner.reason,
    });
}

/** An earlier import not in this run's projects: removed when it is this source's own and its source is gone, else kept and listed. */
function earlierImport(ctx: RootContext, target: ImportTarget, key: string, files: Map<string, string | null>, plan: RootPlan): void {
  const dir = `${IMPORT_RESOURCES_DIR}/${key}`;
  const targetDir = join(target.root, ...dir.split('/'));
  const owner = ownership(ctx, target.version, key, files);
  if (!owner.ours) {
    // Another tool's keys, and this tool's keys from elsewhere, are listed only when they would otherwise look gone.
    if (!ownsKey(ctx.from, key) || ctx.gone(key))
      plan.kept.push({
        key,
        version: target.version,
        targetDir,
        files: [...files.keys()],
        why: 'from-another-source',
        reason: owner.reason,
      });
    return;
  }
  if (!ctx.gone(key)) return;
  if (ctx.keepRemoved) {
    plan.kept.push({
      key,
      version: target.version,
      targetDir,
      files: [...files.keys()],
      why: 'kept-by-you',
      reason: 'Its source is gone; you chose to keep the earlier imports whose source is gone.',
    });
    return;
  }
  plan.removed.push({ key, version: target.version, targetDir, files: [...files.keys()] });
  for (const rel of files.keys()) plan.writes.push(writeOf(target, key, `${dir}/${rel}`, 'delete', null, null, true));
}

/** A root's writes, removals and kept imports; `turns.maybe()` after each project lets a shared loop's other work in. */
export async function planRoot(
  ctx: RootContext,
  target: ImportTarget,
  state: TargetState,
  projects: readonly PlanProject[],
  untouched: ReadonlySet<string>,
  turns: { maybe: () => Promise<void> },
): Promise<RootPlan> {
  const plan: RootPlan = { target, writes: [], removed: [], kept: [] };
  const planned = new Set<string>();
  for (const p of projects.filter((x) => x.included && !untouched.has(x.key))) {
    planned.add(p.key);
    projectWrites(ctx, target, p, state.projects.get(p.key), plan);
    await turns.maybe();
  }
  for (const [key, files] of state.projects) {
    // Codex owns only `resources/<dir>` folders holding a regular `scope.json` (the walk lists regular files only).
    if (planned.has(key) || !files.has('scope.json')) continue;
    earlierImport(ctx, target, key, files, plan);
  }
  const changed = plan.writes.some((w) => w.change !== 'unchanged');
  // Written only where missing: an existing instructions.md (Codex's own importer writes its wording) is kept, so the
  // two importers never rewrite each other's file.
  if ((changed || projects.some((p) => p.included && p.status === 'importable')) && state.instructions === null) {
    plan.writes.unshift(writeOf(target, null, IMPORT_INSTRUCTIONS_PATH, 'create', IMPORT_INSTRUCTIONS, null));
  }
  plan.writes = plan.writes.filter((w) => w.change !== 'unchanged');
  return plan;
}

/**
 * Each file's and project's change across every target (create beats modify beats delete beats unchanged);
 * `turns.maybe()` after each write and each project lets a shared loop's other work in.
 */
export async function markChanges(
  projects: PlanProject[],
  roots: readonly RootPlan[],
  turns: { maybe: () => Promise<void> },
): Promise<void> {
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
    await turns.maybe();
  }
  for (const p of projects) {
    const base = `${IMPORT_RESOURCES_DIR}/${p.key}/`;
    for (const f of p.files) f.change = byPath.get(base + f.relPath) ?? 'unchanged';
    const changes = byProject.get(p.key) ?? [];
    p.change = changes.length === 0 ? 'unchanged' : changes.every((c) => c === 'create') ? 'create' : 'update';
    await turns.maybe();
  }
}
