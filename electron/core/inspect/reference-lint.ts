// Lint rules that need the whole home: pointer targets exist, thread ids are known, and entries are still used.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileList, HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { MemoryMdParsed, MemorySummaryParsed } from '../../../shared/formats';
import type { LintDiagnostic, LintReport } from '../../../shared/lint';
import { budgetHeadline } from '../../../shared/budget';
import { budgetForRoot } from '../budget';
import { parseMemoryFile } from '../formats';
import { buildSessionIndex, collectUsage } from '../sessions';
import { listMemoryRoot } from '../workspace';
import { readSummaryHeads } from './summary-heads';

const DAY_SECONDS = 86_400;

interface Ref {
  file: string;
  threadId: string | null;
  line: number;
}

const stripDir = (file: string) => file.replace(/^rollout_summaries\//, '');

async function refsOf(root: string, path: string, version: MemoryVersion): Promise<Ref[]> {
  const text = await readFile(join(root, path), 'utf8').catch(() => null);
  if (text === null) return [];
  const parsed = parseMemoryFile(text, { path, version });
  if (parsed.kind === 'memory_summary') {
    const summary = parsed as MemorySummaryParsed;
    return [
      ...summary.pointers.map((p) => ({ file: p.file, threadId: p.threadId, line: p.line })),
      ...summary.topics.flatMap((t) => t.rolloutRefs.map((r) => ({ file: r.file, threadId: null, line: r.line }))),
    ];
  }
  if (parsed.kind === 'memory_md') {
    const memory = parsed as MemoryMdParsed;
    return memory.blocks.flatMap((b) => b.tasks.flatMap((t) => t.rolloutSummaryFiles.map((r) => ({ file: r.file, threadId: r.fields.thread_id ?? null, line: r.line }))));
  }
  return [];
}

function pointerDiagnostics(refs: Ref[], existing: Set<string>, knownThreads: Set<string>): LintDiagnostic[] {
  const out: LintDiagnostic[] = [];
  for (const ref of refs) {
    if (!existing.has(stripDir(ref.file))) {
      out.push({ severity: 'error', rule: 'template/pointer-target', line: ref.line, endLine: ref.line, message: `${ref.file} does not exist in rollout_summaries/, so this pointer leads nowhere. Codex prunes summaries that fall out of its selection; remove or update the pointer.` });
    }
    if (ref.threadId && !knownThreads.has(ref.threadId)) {
      out.push({ severity: 'warning', rule: 'template/thread-known', line: ref.line, endLine: ref.line, message: `thread_id=${ref.threadId} is not in Codex's thread catalog, its memory DB, or any session file; the consolidator may have invented or mistyped it.` });
    }
  }
  return out;
}

export const emptyReport = (version: MemoryVersion): LintReport => ({ version, files: [], counts: { error: 0, warning: 0, info: 0 }, scannedFiles: 0 });

/** Adds diagnostics per path to a lint report, keeping its order and counts right. */
function merge(report: LintReport, extra: Map<string, LintDiagnostic[]>): LintReport {
  const files = new Map(report.files.map((f) => [f.path, { ...f, diagnostics: [...f.diagnostics] }]));
  for (const [path, diagnostics] of extra) {
    if (diagnostics.length === 0) continue;
    const file = files.get(path) ?? { path, diagnostics: [] };
    file.diagnostics.push(...diagnostics);
    file.diagnostics.sort((a, b) => a.line - b.line || a.endLine - b.endLine);
    files.set(path, file);
  }
  const sorted = [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const counts = { error: 0, warning: 0, info: 0 };
  for (const file of sorted) for (const d of file.diagnostics) counts[d.severity]++;
  return { ...report, files: sorted, counts };
}

/** One report from the per-file lint and the whole-home rules (the first one's scannedFiles is kept). */
export function mergeLintReports(base: LintReport, extra: LintReport): LintReport {
  return merge(base, new Map(extra.files.map((f) => [f.path, f.diagnostics])));
}

/** The budget lens as a diagnostic: the lines of memory_summary.md the next session does not see (none when it fits). */
async function budgetDiagnostic(root: string, version: MemoryVersion): Promise<LintDiagnostic | null> {
  const report = await budgetForRoot(root, version).catch(() => null);
  if (!report?.truncated || !report.removed) return null;
  const { headline } = budgetHeadline(report);
  return {
    severity: 'warning',
    rule: 'budget/truncated',
    line: report.removed.startLine,
    endLine: report.removed.endLine,
    message: `${headline}. Shorten the summary (or consolidate) so the next session sees all of it.`,
  };
}

/** `onlyPath`: check that one file (the inspector's open file) against the whole root, instead of every file. */
export async function addReferenceLint(
  report: LintReport,
  home: HomeInfo,
  version: MemoryVersion,
  root: string,
  list?: FileList,
  now = new Date(),
  onlyPath?: string,
): Promise<LintReport> {
  const { files } = list ?? (await listMemoryRoot(root, version));
  const wanted = (path: string) => onlyPath === undefined || onlyPath === path;
  const summaries = files.filter((f) => f.kind === 'rollout-summary' && !f.symlink);
  const existing = new Set(summaries.map((f) => stripDir(f.path)));
  const [index, usage, heads] = await Promise.all([
    buildSessionIndex(home, { readMeta: 'none' }),
    collectUsage(home),
    readSummaryHeads(root, summaries.filter((f) => wanted(f.path))),
  ]);
  const knownThreads = new Set([...index.entries.map((e) => e.threadId), ...usage.threads.map((t) => t.threadId)]);
  const extra = new Map<string, LintDiagnostic[]>();
  for (const path of ['memory_summary.md', 'MEMORY.md'].filter(wanted)) {
    if (files.some((f) => f.path === path && !f.symlink)) extra.set(path, pointerDiagnostics(await refsOf(root, path, version), existing, knownThreads));
  }
  if (wanted('memory_summary.md') && files.some((f) => f.path === 'memory_summary.md' && !f.symlink)) {
    const cut = await budgetDiagnostic(root, version);
    if (cut) extra.set('memory_summary.md', [...(extra.get('memory_summary.md') ?? []), cut]);
  }
  const maxUnusedDays = home.config.memories.maxUnusedDays;
  const cutoff = now.getTime() / 1000 - maxUnusedDays * DAY_SECONDS;
  const lastUse = new Map(usage.threads.map((t) => [t.threadId, t.db.find((d) => d.version === version)?.lastUsage?.seconds ?? null]));
  for (const head of heads) {
    const threadId = head.header?.threadId;
    const updated = head.header?.updatedAt ? Date.parse(head.header.updatedAt) / 1000 : NaN;
    const last = (threadId ? lastUse.get(threadId) : null) ?? (Number.isFinite(updated) ? updated : null);
    if (last === null || last >= cutoff) continue;
    const days = Math.floor((now.getTime() / 1000 - last) / DAY_SECONDS);
    extra.set(head.file.path, [{ severity: 'info', rule: 'usage/stale', line: 1, endLine: 1, message: `Not used for ${days} days (max_unused_days = ${maxUnusedDays}): Codex leaves it out of the next consolidation and prunes it from its DB.` }]);
  }
  return merge(report, extra);
}
