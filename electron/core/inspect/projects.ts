// The project lens: every memory entry grouped by the project (cwd or scope) it applies to; misfiled entries flagged.
import { join } from 'node:path';
import type { FileEntry, MemoryVersion } from '../../../shared/domain';
import type { MemoryMdParsed, MemorySummaryParsed, RawMemoriesParsed } from '../../../shared/formats';
import type { MisfiledEntry, Project, ProjectEntry, ProjectLens } from '../../../shared/inspect';
import { parseMemoryFile } from '../formats';
import { listMemoryRoot } from '../codex/workspace';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { projectName, readSummaryHeads } from './summary-heads';

const normCwd = (cwd: string) => cwd.replace(/[\\/]+$/, '');

/** True when a scope name and a cwd name the same project ("invoice-svc" and "/home/dana/src/invoice-svc"). */
export function scopeMatchesCwd(scope: string, cwd: string): boolean {
  const s = scope.trim().toLowerCase();
  const c = normCwd(cwd).toLowerCase();
  const name = (projectName(c) ?? c).toLowerCase();
  return s === c || s === name || s.endsWith('/' + name) || c.endsWith('/' + s) || s.split(/[\s,/()]+/).includes(name);
}

/** True when `child` is `parent` or inside it (a block for a repo applies to its sub-folders). */
const cwdCovers = (parent: string, child: string) => {
  const p = normCwd(parent);
  const c = normCwd(child);
  return c === p || c.startsWith(p + '/') || c.startsWith(p + '\\');
};

async function parseIfPresent<T>(root: string, files: FileEntry[], path: string, version: MemoryVersion): Promise<T | null> {
  const entry = files.find((f) => f.path === path && !f.symlink);
  if (!entry) return null;
  const text = (await readRegularFile(join(root, path), path, NO_CAP)).bytes.toString('utf8');
  return parseMemoryFile(text, { path, version }) as T;
}

interface Collected {
  entries: ProjectEntry[];
  misfiled: MisfiledEntry[];
}

function fromSummary(summary: MemorySummaryParsed, cwdOf: Map<string, string>, out: Collected): void {
  for (const scope of summary.scopes) {
    const refs = [
      ...scope.pointers.map((p) => p.file),
      ...scope.dateGroups.flatMap((g) => [...g.pointers.map((p) => p.file), ...g.topics.flatMap((t) => t.rolloutRefs.map((r) => r.file))]),
      ...scope.topics.flatMap((t) => t.rolloutRefs.map((r) => r.file)),
    ];
    const cwds = [...new Set(refs.map((f) => cwdOf.get(f.replace(/^rollout_summaries\//, ''))).filter((c): c is string => !!c))];
    const matching = cwds.find((c) => scopeMatchesCwd(scope.name, c));
    const entry: ProjectEntry = {
      kind: 'summary-scope',
      path: 'memory_summary.md',
      line: scope.line,
      endLine: scope.endLine,
      title: scope.name,
      cwd: matching ?? (cwds.length === 1 ? cwds[0] : undefined) ?? null,
    };
    out.entries.push(entry);
    for (const cwd of cwds) {
      if (scopeMatchesCwd(scope.name, cwd)) continue;
      out.misfiled.push({
        ...entry,
        cwd,
        filedUnder: scope.name,
        appliesTo: cwd,
        message: `Filed under "${scope.name}" in memory_summary.md, but it points at a session from ${cwd}.`,
      });
    }
  }
}

function fromMemoryMd(memory: MemoryMdParsed, cwdOf: Map<string, string>, out: Collected): void {
  for (const block of memory.blocks) {
    const cwd = block.appliesTo?.cwd ?? null;
    const entry: ProjectEntry = {
      kind: 'memory-block',
      path: 'MEMORY.md',
      line: block.line,
      endLine: block.endLine,
      title: block.title,
      cwd,
    };
    out.entries.push(entry);
    if (!cwd) continue;
    const evidence = block.tasks.flatMap((t) =>
      t.rolloutSummaryFiles.map((r) => r.fields.cwd ?? cwdOf.get(r.file.replace(/^rollout_summaries\//, ''))),
    );
    for (const other of new Set(evidence.filter((c): c is string => !!c))) {
      if (cwdCovers(cwd, other)) continue;
      out.misfiled.push({
        ...entry,
        cwd: other,
        filedUnder: cwd,
        appliesTo: other,
        message: `"${block.title}" says it applies to ${cwd}, but one of its rollouts ran in ${other}.`,
      });
    }
  }
}

function fromRaw(raw: RawMemoriesParsed, out: Collected): void {
  for (const thread of raw.threads) {
    out.entries.push({
      kind: 'raw-thread',
      path: 'raw_memories.md',
      line: thread.line,
      endLine: thread.endLine,
      title: `Thread ${thread.threadId}`,
      cwd: thread.cwd,
    });
  }
}

async function fromImports(root: string, files: FileEntry[], out: Collected): Promise<void> {
  for (const scope of files.filter((f) => f.kind === 'extension-scope' && !f.symlink)) {
    let cwd: string | null = null;
    try {
      const value = JSON.parse((await readRegularFile(join(root, scope.path), scope.path, NO_CAP)).bytes.toString('utf8')) as {
        cwd?: unknown;
      };
      cwd = typeof value.cwd === 'string' ? value.cwd : null;
    } catch {
      cwd = null; // The parser's diagnostics report a broken scope.json; here it is just unscoped.
    }
    const folder = scope.path.slice(0, scope.path.lastIndexOf('/') + 1);
    for (const resource of files.filter((f) => f.kind === 'extension-resource' && f.path.startsWith(folder))) {
      out.entries.push({
        kind: 'import-resource',
        path: resource.path,
        line: 1,
        endLine: 1,
        title: resource.path.slice(folder.length),
        cwd,
      });
    }
  }
}

function group(entries: ProjectEntry[]): { projects: Project[]; unscoped: ProjectEntry[] } {
  const byKey = new Map<string, Project>();
  const unscoped: ProjectEntry[] = [];
  const cwds = [
    ...new Set(
      entries
        .map((e) => e.cwd)
        .filter((c): c is string => !!c)
        .map(normCwd),
    ),
  ];
  for (const entry of entries) {
    const cwd = entry.cwd
      ? normCwd(entry.cwd)
      : entry.kind === 'summary-scope'
        ? (cwds.find((c) => scopeMatchesCwd(entry.title, c)) ?? null)
        : null;
    const key = cwd ?? (entry.kind === 'summary-scope' ? entry.title : null);
    if (!key) {
      unscoped.push(entry);
      continue;
    }
    let project = byKey.get(key);
    if (!project) byKey.set(key, (project = { key, name: cwd ? (projectName(cwd) ?? cwd) : key, cwd, entries: [] }));
    project.entries.push(entry);
  }
  const projects = [...byKey.values()].sort((a, b) => b.entries.length - a.entries.length || a.name.localeCompare(b.name));
  return { projects, unscoped };
}

export async function buildProjectLens(root: string, version: MemoryVersion): Promise<ProjectLens> {
  const { files } = await listMemoryRoot(root, version);
  const heads = await readSummaryHeads(
    root,
    files.filter((f) => f.kind === 'rollout-summary'),
  );
  const cwdOf = new Map(
    heads.filter((h) => h.header?.cwd).map((h) => [h.file.path.replace(/^rollout_summaries\//, ''), h.header?.cwd as string]),
  );
  const out: Collected = { entries: [], misfiled: [] };
  const summary = await parseIfPresent<MemorySummaryParsed>(root, files, 'memory_summary.md', version);
  if (summary?.kind === 'memory_summary') fromSummary(summary, cwdOf, out);
  const memory = await parseIfPresent<MemoryMdParsed>(root, files, 'MEMORY.md', version);
  if (memory?.kind === 'memory_md') fromMemoryMd(memory, cwdOf, out);
  const raw = await parseIfPresent<RawMemoriesParsed>(root, files, 'raw_memories.md', version);
  if (raw?.kind === 'raw_memories') fromRaw(raw, out);
  for (const head of heads) {
    out.entries.push({
      kind: 'rollout-summary',
      path: head.file.path,
      line: 1,
      endLine: 1,
      title: head.title ?? head.file.path,
      cwd: head.header?.cwd ?? null,
    });
  }
  await fromImports(root, files, out);
  return { version, ...group(out.entries), misfiled: out.misfiled };
}

/** The pool task: MEMORY.md and the summary are parsed whole for the lens. */
export function projectsTask(input: { root: string; version: MemoryVersion }): Promise<ProjectLens> {
  return buildProjectLens(input.root, input.version);
}
