// Lints a whole memory root: Codex's own artifact validators, the secret scan, and rules merged in from parsers.
import { appendAll } from '../platform/append';
import { type Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileEntry, FileKind, FileList, MemoryVersion } from '../../../shared/domain';
import type { LintCounts, LintDiagnostic, LintFileReport, LintReport } from '../../../shared/lint';
import { FILES } from '../codex/constants';
import { StudioFailure } from '../platform/errors';
import { createRootReader, listMemoryRoot } from '../codex/workspace';
import { checkSummaryFirstLine, checkV2Headings, checkV2Size } from './codex-rules';
import { secretDiagnostics } from './secrets';

/** One Markdown file of the root, as handed to every rule. */
export interface LintFileInput {
  /** Root-relative, `/`-separated. */
  path: string;
  kind: FileKind;
  text: string;
}

export interface LintRuleContext {
  version: MemoryVersion;
  /** `[memories] max_unused_days` (Codex's default 30 when not given). */
  maxUnusedDays: number;
  now: Date;
}

/** A rule from elsewhere (the format parsers' template rules); it sees each Markdown file once. */
export type ExtraLintRule = (file: LintFileInput, context: LintRuleContext) => LintDiagnostic[];

export interface LintContext {
  maxUnusedDays?: number;
  now?: Date;
  extraRules?: readonly ExtraLintRule[];
  /** The root's listing when the caller already has one (saves a walk of thousands of files). */
  list?: FileList;
}

const READ_BATCH = 64;
const DEFAULT_MAX_UNUSED_DAYS = 30;

export const symlinkDiagnostic = (what: string): LintDiagnostic => ({
  severity: 'error',
  rule: 'codex/no-symlinks',
  line: 1,
  endLine: 1,
  message: `${what} is a symlink. Codex deletes every symlink in the memory folder and then fails the consolidation (failed_invalid_artifacts). Replace it with a regular file or folder.`,
});

/** Symlinks inside `.git/`: Codex's `remove_memory_symlinks` walks there too. Listed only, never read or changed. */
export async function gitSymlinks(root: string): Promise<string[]> {
  const found: string[] = [];
  const pending = ['.git'];
  while (pending.length > 0) {
    const rel = pending.pop() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, rel), { withFileTypes: true });
    } catch {
      continue; // No .git, or an unreadable folder: nothing Memory Studio can say about it.
    }
    for (const entry of entries) {
      if (entry.isSymbolicLink()) found.push(`${rel}/${entry.name}`);
      else if (entry.isDirectory()) pending.push(`${rel}/${entry.name}`);
    }
  }
  return found;
}

/** `codex/v1-memory-md`: after removing symlinks, Codex requires `MEMORY.md` to be a regular file. */
export async function checkMemoryMd(root: string): Promise<LintDiagnostic[]> {
  const rule = 'codex/v1-memory-md';
  const why =
    "Codex's v1 consolidation requires a regular MEMORY.md and fails the run without one (failed_invalid_artifacts); the read path also tells the model to search it first.";
  const info = await lstat(join(root, FILES.memory)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  const problem =
    info === null
      ? 'MEMORY.md is missing'
      : info.isSymbolicLink()
        ? 'MEMORY.md is a symlink, which Codex deletes before it checks'
        : info.isFile()
          ? null
          : 'MEMORY.md is not a regular file';
  return problem === null ? [] : [{ severity: 'error', rule, line: 1, endLine: 1, message: `${problem}. ${why}` }];
}

async function readText(
  read: (entry: FileEntry) => Promise<{ content: string }>,
  entry: FileEntry,
): Promise<{ text: string } | { error: string }> {
  try {
    return { text: (await read(entry)).content };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function runExtraRules(rules: readonly ExtraLintRule[], file: LintFileInput, context: LintRuleContext): LintDiagnostic[] {
  const out: LintDiagnostic[] = [];
  for (const rule of rules) {
    try {
      appendAll(out, rule(file, context));
    } catch (error) {
      // One broken rule must not hide every other finding.
      out.push({
        severity: 'warning',
        rule: 'lint/rule-failed',
        line: 1,
        endLine: 1,
        message: `A lint rule failed on ${file.path}: ${(error as Error).message}`,
      });
    }
  }
  return out;
}

/** The findings on one Markdown file's text: secrets, then the extra rules (each one's failure is a finding too). */
export function lintFileText(file: LintFileInput, context: LintRuleContext, extraRules: readonly ExtraLintRule[]): LintDiagnostic[] {
  return [...secretDiagnostics(file.text), ...runExtraRules(extraRules, file, context)];
}

/**
 * What the listing found besides symlinks (a pipe or socket, a folder it cannot read) is part of the report too, from
 * the files or from the index, so `lint` and the app count the same problems.
 */
export function addListingDiagnostics(list: FileList, add: (path: string, kind: undefined, diagnostics: LintDiagnostic[]) => void): void {
  for (const d of list.diagnostics) {
    if (d.rule === 'workspace/symlink') continue;
    add(d.path ?? '.', undefined, [{ severity: d.severity, rule: d.rule, line: 1, endLine: 1, message: d.message }]);
  }
}

/** The warning for a Markdown file whose text could not be read. */
export const unreadableDiagnostic = (error: string): LintDiagnostic => ({
  severity: 'warning',
  rule: 'lint/unreadable',
  line: 1,
  endLine: 1,
  message: `${error} Its content was not checked.`,
});

/**
 * A root with no memory file at all: what `codex debug clear-memories` (and the app-server's memory reset) leave, files
 * and git baseline gone, and what a root looks like before Codex's first consolidation. Nothing to repair by hand:
 * said once, as a note, instead of the missing-file errors a consolidated root would deserve.
 */
export function emptyRootDiagnostic(version: MemoryVersion): LintDiagnostic {
  return {
    severity: 'info',
    rule: 'codex/empty-root',
    line: 1,
    endLine: 1,
    message: `The ${version} root holds no memory files. Codex leaves it so after "codex debug clear-memories" (or a memory reset: files, git baseline and extracted memories all gone) and before its first consolidation. Nothing needs fixing: the next session start with memories on extracts recent sessions again and consolidates them; until then new sessions get no memory summary.`,
  };
}

/**
 * Codex's root-level checks of memory_summary.md: its first line, and for v2 its headings and size. In an empty root
 * (`rootEmpty`) the one note says why nothing is there.
 */
export function summaryDiagnostics(
  version: MemoryVersion,
  summaryText: string | null,
  summaryError: string | null,
  rootEmpty = false,
): LintDiagnostic[] {
  if (rootEmpty && summaryText === null && summaryError === null) return [emptyRootDiagnostic(version)];
  if (summaryError !== null)
    return [
      {
        severity: 'error',
        rule: 'codex/summary-first-line',
        line: 1,
        endLine: 1,
        message: `Codex cannot read ${FILES.summary} either, so its consolidation check fails.`,
      },
    ];
  const out = [...checkSummaryFirstLine(summaryText)];
  if (version === 'v2' && summaryText !== null) appendAll(appendAll(out, checkV2Headings(summaryText)), checkV2Size(summaryText));
  return out;
}

/** Files sorted by path, each one's findings by line then rule, with the counts: the order every lint report has. */
export function sortedReport(version: MemoryVersion, byPath: Iterable<LintFileReport>, scannedFiles: number): LintReport {
  const files = [...byPath].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of files) file.diagnostics.sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
  return { version, files, counts: countAll(files), scannedFiles };
}

function countAll(files: LintFileReport[]): LintCounts {
  const counts: LintCounts = { error: 0, warning: 0, info: 0 };
  for (const file of files) for (const d of file.diagnostics) counts[d.severity]++;
  return counts;
}

/** Lints every Markdown file of a memory root (never `.git/`) and the root's layout, as Codex would validate it. */
export async function lintRoot(root: string, version: MemoryVersion, context: LintContext = {}): Promise<LintReport> {
  const ruleContext: LintRuleContext = {
    version,
    maxUnusedDays: context.maxUnusedDays ?? DEFAULT_MAX_UNUSED_DAYS,
    now: context.now ?? new Date(),
  };
  const rootInfo = await lstat(root).catch(() => null);
  if (rootInfo === null) throw new StudioFailure('NotFound', `There is no ${version} memory folder at ${root}.`, { path: root });
  if (rootInfo.isSymbolicLink()) {
    const diagnostics = [
      {
        ...symlinkDiagnostic('The memory folder itself'),
        message: `The ${version} memory folder ${root} is a symlink; Codex refuses a symlinked memory root and does not read or consolidate it.`,
      },
    ];
    return { version, files: [{ path: '.', diagnostics }], counts: countAll([{ path: '.', diagnostics }]), scannedFiles: 0 };
  }

  const list = context.list ?? (await listMemoryRoot(root, version));
  const byPath = new Map<string, LintFileReport>();
  const add = (path: string, kind: FileKind | undefined, diagnostics: LintDiagnostic[]) => {
    if (diagnostics.length === 0) return;
    const entry = byPath.get(path) ?? { path, ...(kind ? { kind } : {}), diagnostics: [] };
    appendAll(entry.diagnostics, diagnostics);
    byPath.set(path, entry);
  };

  for (const file of list.files) if (file.symlink) add(file.path, file.kind, [symlinkDiagnostic(file.path)]);
  addListingDiagnostics(list, add);
  for (const path of await gitSymlinks(root)) add(path, undefined, [symlinkDiagnostic(path)]);

  const read = createRootReader(root, version);
  const markdown = list.files.filter((f): f is FileEntry => !f.symlink && f.path.endsWith('.md'));
  let summaryText: string | null = null;
  let summaryError: string | null = null;
  for (let i = 0; i < markdown.length; i += READ_BATCH) {
    const batch = markdown.slice(i, i + READ_BATCH);
    const results = await Promise.all(batch.map(async (file) => ({ file, result: await readText(read, file) })));
    for (const { file, result: read } of results) {
      if ('error' in read) {
        if (file.path === FILES.summary) summaryError = read.error;
        add(file.path, file.kind, [unreadableDiagnostic(read.error)]);
        continue;
      }
      if (file.path === FILES.summary) summaryText = read.text;
      add(file.path, file.kind, lintFileText({ path: file.path, kind: file.kind, text: read.text }, ruleContext, context.extraRules ?? []));
    }
  }

  const rootEmpty = list.files.length === 0;
  add(FILES.summary, 'summary', summaryDiagnostics(version, summaryText, summaryError, rootEmpty));
  if (version === 'v1' && !rootEmpty) add(FILES.memory, 'memory', await checkMemoryMd(root));
  return sortedReport(version, byPath.values(), markdown.length);
}
