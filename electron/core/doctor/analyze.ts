// What the memory files alone tell about a home: entries, duplicates, AGENTS.md overlaps, dead pointers, the budget cut.
import { appendAll } from '../platform/append';
import { dirname, isAbsolute, relative } from 'node:path';
import type { DoctorEntry, DoctorProject, Finding, StaleReason } from '../../../shared/doctor';
import type { FileEntry, MemoryVersion } from '../../../shared/domain';
import { StudioFailure } from '../platform/errors';
import { scopeMatchesCwd } from '../inspect/projects';
import { readSummaryHeads } from '../inspect/summary-heads';
import { listMemoryRoot, readMemoryFile } from '../codex/workspace';
import { clusterPlaces, duplicateClusters, findingsOfPlaces, type ClusterPlaces } from './duplicates';
import { DOCTOR_FILES, entriesOf, type EntryModel } from '../review/blocks/entries';
import { indexedFilesPart, indexHeads, type DoctorIndex, type HeadsOf } from './indexed-roots';
import { oversizeFinding } from './oversize';
import { findOverlaps, overlapFinding } from './overlap';
import { readProject, type ProjectModel, type RuleFileModel } from './rule-files';
import { fileStaleReasons, judgedForStaleness } from './stale';

export interface AnalyzeInput {
  codexHome: string;
  /** The roots to look at (existing ones). */
  roots: { version: MemoryVersion; path: string }[];
  /** Project folders named by the person (`--project`), absolute. */
  projects: string[];
  limitTokens?: number;
  /** The host's refreshed index: each root's listing and heads from it, the files' part kept there (`indexed-roots.ts`). */
  index?: DoctorIndex;
}

export interface Analysis {
  roots: { version: MemoryVersion; path: string; entries: number }[];
  entries: DoctorEntry[];
  findings: Finding[];
  /** Stale reasons the files alone give (dead pointers, missing project folders), by entry id. */
  fileStale: Record<string, StaleReason[]>;
  projects: DoctorProject[];
  notes: string[];
}

/** Projects checked per run: more cwds than this in one home is a sign of something else going on. */
const MAX_PROJECTS = 200;

const normCwd = (cwd: string) => (cwd.length > 1 ? cwd.replace(/[\\/]+$/, '') : cwd);
const covers = (dir: string, cwd: string) => {
  const rel = relative(dir, cwd);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

export interface RootRead {
  version: MemoryVersion;
  path: string;
  files: FileEntry[];
  models: EntryModel[];
  summary: string | null;
  /** The texts the models were cut from, by file (only while the files' part is made). */
  texts: Map<string, string>;
}

/** What the memory files alone give, before summary entries learn their cwds (which the rollout summaries give). */
export interface FilesPart {
  roots: RootRead[];
  /** Duplicate clusters by their entries' places in the roots' models, in order. */
  clusters: ClusterPlaces[];
  oversize: Finding[];
}

async function readRoot(version: MemoryVersion, path: string, notes: string[], listed?: FileEntry[]): Promise<RootRead> {
  const files = listed ?? (await listMemoryRoot(path, version)).files;
  const models: EntryModel[] = [];
  const texts = new Map<string, string>();
  let summary: string | null = null;
  for (const file of DOCTOR_FILES) {
    if (!files.some((f) => f.path === file && !f.symlink)) continue;
    try {
      const { content } = await readMemoryFile(path, version, file);
      if (file === 'memory_summary.md') summary = content;
      texts.set(file, content);
      appendAll(models, entriesOf(version, file, content).entries);
    } catch (error) {
      notes.push(`${version}/${file} was not read: ${error instanceof StudioFailure ? error.message : String(error)}`);
    }
  }
  return { version, path, files, models, summary, texts };
}

/** Reads and parses the roots, finds the duplicate clusters and the budget's cut (`countTokens`: the index's counts). */
export async function filesPart(input: AnalyzeInput, notes: string[], countTokens?: (text: string) => number): Promise<FilesPart> {
  const roots: RootRead[] = [];
  for (const { version, path } of input.roots) roots.push(await readRoot(version, path, notes, input.index?.files[version]));
  const models = roots.flatMap((r) => r.models);
  const oversize: Finding[] = [];
  for (const root of roots) {
    const cut = root.summary === null ? null : oversizeFinding(root.version, root.summary, root.models, input.limitTokens, countTokens);
    if (cut) oversize.push(cut);
  }
  return { roots, clusters: clusterPlaces(models, duplicateClusters(models)), oversize };
}

/** Summary entries name no cwd: their rollout summaries' headers do, else their scope names a known project. */
export async function resolveSummaryCwds(
  root: Pick<RootRead, 'path' | 'files' | 'models'>,
  knownCwds: readonly string[],
  headsOf?: HeadsOf,
): Promise<void> {
  const entries = root.models.filter((m) => m.entry.kind === 'summary-entry');
  const wanted = new Set(entries.flatMap((m) => m.entry.pointers));
  const pointed = root.files.filter((f) => wanted.has(f.path));
  const heads = headsOf ? headsOf(pointed) : await readSummaryHeads(root.path, pointed);
  const byFile = new Map(heads.map((h) => [h.file.path, h.header]));
  for (const { entry } of entries) {
    const headers = entry.pointers.map((p) => byFile.get(p)).filter((h) => !!h);
    entry.cwd =
      headers.find((h) => h?.cwd)?.cwd ?? (entry.scope ? (knownCwds.find((c) => scopeMatchesCwd(entry.scope as string, c)) ?? null) : null);
    for (const h of headers) if (h?.threadId && !entry.threadIds.includes(h.threadId)) entry.threadIds.push(h.threadId);
  }
}

async function readProjects(input: AnalyzeInput, models: readonly EntryModel[], notes: string[]): Promise<ProjectModel[]> {
  const named = new Map<string, DoctorProject['from']>();
  for (const p of input.projects) named.set(normCwd(p), 'argument');
  for (const { entry } of models) {
    if (entry.cwd && isAbsolute(entry.cwd) && !named.has(normCwd(entry.cwd)))
      named.set(normCwd(entry.cwd), entry.kind === 'summary-entry' ? 'scope' : 'entry');
  }
  const cwds = [...named].slice(0, MAX_PROJECTS);
  if (named.size > MAX_PROJECTS)
    notes.push(`${named.size} project folders are named; only the first ${MAX_PROJECTS} were checked for AGENTS.md.`);
  const projects = [await readProject(input.codexHome, 'global')];
  for (const [cwd, from] of cwds) {
    const read = await readProject(cwd, from);
    // A folder the person named and mistyped would otherwise pass as "checked, no AGENTS.md".
    if (from === 'argument' && !read.project.exists)
      notes.push(`The project folder ${cwd} does not exist, so no AGENTS.md or CLAUDE.md was read there; check the path.`);
    projects.push(read);
  }
  return projects;
}

/** A rule file holds an entry when the entry's project is at or below the file's folder; Codex's global file holds all. */
function appliesTo(globalFiles: ReadonlySet<string>): (model: EntryModel, file: RuleFileModel) => boolean {
  return (model, file) => globalFiles.has(file.path) || !model.entry.cwd || covers(dirname(file.path), normCwd(model.entry.cwd));
}

function overlapFindings(models: readonly EntryModel[], projects: readonly ProjectModel[]): Finding[] {
  const files = new Map<string, RuleFileModel>();
  for (const p of projects) for (const f of p.ruleFiles) files.set(f.path, f);
  const global = new Set(projects.filter((p) => p.project.from === 'global').flatMap((p) => p.ruleFiles.map((f) => f.path)));
  const judged = models.filter((m) => m.entry.kind !== 'raw-memory');
  return findOverlaps(judged, [...files.values()], appliesTo(global)).map(overlapFinding);
}

function staleByEntry(roots: readonly RootRead[], projects: readonly ProjectModel[]): Record<string, StaleReason[]> {
  const exists = new Map(projects.map((p) => [p.project.cwd, p.project.exists]));
  const out: Record<string, StaleReason[]> = {};
  for (const root of roots) {
    const summaries = new Set(
      root.files.filter((f) => f.kind === 'rollout-summary').map((f) => f.path.replace(/^rollout_summaries\//, '')),
    );
    for (const model of root.models.filter((m) => judgedForStaleness(m.entry))) {
      const reasons = fileStaleReasons(model, summaries, (cwd) => exists.get(normCwd(cwd)) ?? null);
      if (reasons.length > 0) out[model.entry.id] = reasons;
    }
  }
  return out;
}

export async function analyzeHome(input: AnalyzeInput): Promise<Analysis> {
  const notes: string[] = [];
  const { roots, clusters, oversize } = input.index
    ? await indexedFilesPart(input, input.index, notes, filesPart)
    : await filesPart(input, notes);
  const known = [...new Set(roots.flatMap((r) => r.models.map((m) => m.entry.cwd)).filter((c): c is string => !!c && isAbsolute(c)))];
  for (const root of roots) await resolveSummaryCwds(root, known, input.index && indexHeads(input.index.path, root.version));
  const models = roots.flatMap((r) => r.models);
  const projects = await readProjects(input, models, notes);
  const findings = [...findingsOfPlaces(models, clusters), ...overlapFindings(models, projects), ...oversize];
  return {
    roots: roots.map((r) => ({ version: r.version, path: r.path, entries: r.models.length })),
    entries: models.map((m) => m.entry),
    findings,
    fileStale: staleByEntry(roots, projects),
    projects: projects.map((p) => p.project),
    notes,
  };
}
