// The whole-home lint rules on gathered inputs: pointer targets exist, thread ids are known, entries are still used.
// Plain functions, so the index's fast path runs them without loading the parsers or the session scanner.
import { appendAll } from '../platform/append';
import type { FileEntry, HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { ParsedFile } from '../../../shared/formats';
import type { LintDiagnostic, LintReport } from '../../../shared/lint';
import type { UsageReport } from '../../../shared/provenance';
import type { BudgetReport } from '../../../shared/budget';
import { budgetHeadline } from '../../../shared/budget-text';
import type { SummaryHead } from './summary-heads';

const DAY_SECONDS = 86_400;

export interface Ref {
  file: string;
  threadId: string | null;
  line: number;
}

const stripDir = (file: string) => file.replace(/^rollout_summaries\//, '');

/** A `rollout_summaries/<file>.md` path written anywhere in a line (prose, a bullet, a code span, a link). */
const ROLLOUT_PATH = /rollout_summaries\/[^\s()`'",;[\]<>]+?\.md/g;

/** The kinds whose free text may name a rollout summary by path: ad-hoc notes, skills, an extension's instructions. */
const NOTE_KINDS: ReadonlySet<ParsedFile['kind']> = new Set(['ad_hoc_note', 'skill', 'extension_instructions']);
const NOTE_FILE_KINDS: ReadonlySet<FileEntry['kind']> = new Set(['ad-hoc-note', 'skill', 'extension-instructions']);

/** Every `rollout_summaries/…` path in a note's lines (fenced code included: a command that reads it breaks too). */
function refsOfText(lines: readonly string[]): Ref[] {
  const refs: Ref[] = [];
  lines.forEach((text, index) => {
    for (const match of text.matchAll(ROLLOUT_PATH)) refs.push({ file: match[0], threadId: null, line: index + 1 });
  });
  return refs;
}

/** Every pointer to a rollout summary in a parsed memory_summary.md, MEMORY.md, ad-hoc note, skill or instructions. */
export function refsOfParsed(parsed: ParsedFile): Ref[] {
  if (NOTE_KINDS.has(parsed.kind)) return refsOfText(parsed.source.lines);
  if (parsed.kind === 'memory_summary') {
    const summary = parsed;
    return [
      ...summary.pointers.map((p) => ({ file: p.file, threadId: p.threadId, line: p.line })),
      ...summary.topics.flatMap((t) => t.rolloutRefs.map((r) => ({ file: r.file, threadId: null, line: r.line }))),
    ];
  }
  if (parsed.kind === 'memory_md') {
    const memory = parsed;
    return memory.blocks.flatMap((b) =>
      b.tasks.flatMap((t) => t.rolloutSummaryFiles.map((r) => ({ file: r.file, threadId: r.fields.thread_id ?? null, line: r.line }))),
    );
  }
  return [];
}

function pointerDiagnostics(refs: Ref[], existing: ReadonlySet<string>, knownThreads: ReadonlySet<string>): LintDiagnostic[] {
  const out: LintDiagnostic[] = [];
  for (const ref of refs) {
    if (!existing.has(stripDir(ref.file))) {
      out.push({
        severity: 'error',
        rule: 'template/pointer-target',
        line: ref.line,
        endLine: ref.line,
        message: `${ref.file} does not exist in rollout_summaries/, so this pointer leads nowhere. Codex prunes summaries that fall out of its selection; remove or update the pointer.`,
      });
    }
    if (ref.threadId && !knownThreads.has(ref.threadId)) {
      out.push({
        severity: 'warning',
        rule: 'template/thread-known',
        line: ref.line,
        endLine: ref.line,
        message: `thread_id=${ref.threadId} is not in Codex's thread catalog, its memory DB, or any session file; the consolidator may have invented or mistyped it.`,
      });
    }
  }
  return out;
}

/**
 * `reference/note-pointer`: the rule `template/pointer-target` applies to MEMORY.md and the summary, for the free text
 * of a note, a skill or an extension's instructions (a path Codex's read path would follow and find nothing at).
 */
export function notePointerDiagnostics(path: string, refs: readonly Ref[], existing: ReadonlySet<string>): LintDiagnostic[] {
  return refs
    .filter((ref) => !existing.has(stripDir(ref.file)))
    .map((ref) => ({
      severity: 'warning' as const,
      rule: 'reference/note-pointer',
      line: ref.line,
      endLine: ref.line,
      message: `${path} line ${ref.line} points at ${ref.file}, which does not exist in rollout_summaries/ (Codex prunes summaries that fall out of its selection, or the name is mistyped). Change the path to an existing rollout summary, or remove the reference.`,
    }));
}

/** Adds diagnostics per path to a lint report, keeping its order and counts right. */
export function merge(report: LintReport, extra: Map<string, LintDiagnostic[]>): LintReport {
  const files = new Map(report.files.map((f) => [f.path, { ...f, diagnostics: [...f.diagnostics] }]));
  for (const [path, diagnostics] of extra) {
    if (diagnostics.length === 0) continue;
    const file = files.get(path) ?? { path, diagnostics: [] };
    appendAll(file.diagnostics, diagnostics);
    file.diagnostics.sort((a, b) => a.line - b.line || a.endLine - b.endLine);
    files.set(path, file);
  }
  const sorted = [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const counts = { error: 0, warning: 0, info: 0 };
  for (const file of sorted) for (const d of file.diagnostics) counts[d.severity]++;
  return { ...report, files: sorted, counts };
}

/** What the whole-home rules look at, however it was gathered (read now, or from the index). */
export interface ReferenceInputs {
  files: readonly FileEntry[];
  /** Thread ids of session files, of citations and of Codex's usage counters. */
  knownThreads: ReadonlySet<string>;
  usage: UsageReport;
  /** Heads of the rollout summaries to judge for staleness. */
  heads: readonly SummaryHead[];
  refs: (path: string) => Promise<Ref[]> | Ref[];
  /** The summary's budget (null when it cannot be read): its cut becomes a `budget/truncated` diagnostic. */
  budget?: () => Promise<BudgetReport | null>;
}

/** The budget lens as a diagnostic: the lines of memory_summary.md the next session does not see (none when it fits). */
function budgetDiagnostic(report: BudgetReport | null): LintDiagnostic | null {
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

/** The whole-home rules' findings per path: pointer targets, thread ids known, and entries gone stale. */
export async function referenceFindings(
  home: HomeInfo,
  version: MemoryVersion,
  inputs: ReferenceInputs,
  now = new Date(),
  onlyPath?: string,
): Promise<Map<string, LintDiagnostic[]>> {
  const wanted = (path: string) => onlyPath === undefined || onlyPath === path;
  const existing = new Set(inputs.files.filter((f) => f.kind === 'rollout-summary' && !f.symlink).map((f) => stripDir(f.path)));
  const extra = new Map<string, LintDiagnostic[]>();
  for (const path of ['memory_summary.md', 'MEMORY.md'].filter(wanted)) {
    if (inputs.files.some((f) => f.path === path && !f.symlink))
      extra.set(path, pointerDiagnostics(await inputs.refs(path), existing, inputs.knownThreads));
  }
  for (const file of inputs.files) {
    if (!NOTE_FILE_KINDS.has(file.kind) || file.symlink || !wanted(file.path)) continue;
    const found = notePointerDiagnostics(file.path, await inputs.refs(file.path), existing);
    if (found.length > 0) extra.set(file.path, found);
  }
  if (inputs.budget && wanted('memory_summary.md') && inputs.files.some((f) => f.path === 'memory_summary.md' && !f.symlink)) {
    const cut = budgetDiagnostic(await inputs.budget());
    if (cut) extra.set('memory_summary.md', [...(extra.get('memory_summary.md') ?? []), cut]);
  }
  const maxUnusedDays = home.config.memories.maxUnusedDays;
  const cutoff = now.getTime() / 1000 - maxUnusedDays * DAY_SECONDS;
  const lastUse = new Map(
    inputs.usage.threads.map((t) => [t.threadId, t.db.find((d) => d.version === version)?.lastUsage?.seconds ?? null]),
  );
  for (const head of inputs.heads) {
    if (!wanted(head.file.path)) continue;
    const threadId = head.header?.threadId;
    const updated = head.header?.updatedAt ? Date.parse(head.header.updatedAt) / 1000 : NaN;
    const last = (threadId ? lastUse.get(threadId) : null) ?? (Number.isFinite(updated) ? updated : null);
    if (last === null || last >= cutoff) continue;
    const days = Math.floor((now.getTime() / 1000 - last) / DAY_SECONDS);
    extra.set(head.file.path, [
      {
        severity: 'info',
        rule: 'usage/stale',
        line: 1,
        endLine: 1,
        message: `Not used for ${days} days (max_unused_days = ${maxUnusedDays}): Codex leaves it out of the next consolidation and prunes it from its DB.`,
      },
    ]);
  }
  return extra;
}

/** Adds the whole-home rules' findings to a report. */
export function withReferenceFindings(report: LintReport, extra: Map<string, LintDiagnostic[]>): LintReport {
  return merge(report, extra);
}
