// Validation of a consolidation result: Codex's own artifact checks plus our lint, on a staged folder or on in-memory files.
import { appendAll } from '../platform/append';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileKind, FileList, MemoryVersion } from '../../../shared/domain';
import type { LintDiagnostic } from '../../../shared/lint';
import { FILES } from '../codex/constants';
import { parseMemoryFile } from '../formats';
import { listMemoryRoot } from '../codex/workspace';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { checkSummaryFirstLine, checkV2Headings, checkV2Size, lintRoot, secretDiagnostics } from '../lint';
import { gateSecretDiagnostics } from './secret-gate';
import type { Validation } from './types';

type PathDiagnostic = Validation['diagnostics'][number];

export interface ResultFileOptions {
  /** File names present in `rollout_summaries/` after the run; when given, pointers to other files are errors. */
  rolloutSummaries?: ReadonlySet<string>;
  /** The live files' texts by path (null: absent), for the secret gate's "was this line there before". */
  live?: ReadonlyMap<string, string | null>;
}

const at = (path: string, diagnostics: LintDiagnostic[]): PathDiagnostic[] => diagnostics.map((d) => ({ ...d, path }));

function finish(diagnostics: PathDiagnostic[]): Validation {
  const sorted = diagnostics
    .slice()
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.rule.localeCompare(b.rule)));
  return { ok: !sorted.some((d) => d.severity === 'error'), diagnostics: sorted };
}

/** `rollout_summaries/<file>` references in the summary and MEMORY.md that lead to no file. */
function pointerDiagnostics(path: string, text: string, version: MemoryVersion, existing: ReadonlySet<string>): LintDiagnostic[] {
  const parsed = parseMemoryFile(text, { path, version });
  const refs: Array<{ file: string; line: number }> = [];
  if (parsed.kind === 'memory_summary') {
    const s = parsed;
    appendAll(refs, s.pointers);
    appendAll(
      refs,
      s.topics.flatMap((t) => t.rolloutRefs),
    );
  } else if (parsed.kind === 'memory_md') {
    appendAll(
      refs,
      parsed.blocks.flatMap((b) => b.tasks.flatMap((t) => t.rolloutSummaryFiles)),
    );
  }
  return refs
    .filter((ref) => !existing.has(ref.file.replace(/^rollout_summaries\//, '')))
    .map((ref) => ({
      severity: 'error' as const,
      rule: 'template/pointer-target',
      line: ref.line,
      endLine: ref.line,
      message: `${ref.file} does not exist in rollout_summaries/ of the result, so this pointer leads nowhere. Point it at a summary of the current selection or remove it.`,
    }));
}

function summaryChecks(text: string | null, version: MemoryVersion): LintDiagnostic[] {
  const out = checkSummaryFirstLine(text);
  if (version === 'v2' && text !== null) appendAll(appendAll(out, checkV2Headings(text)), checkV2Size(text));
  return out;
}

const memoryMissing = (): LintDiagnostic => ({
  severity: 'error',
  rule: 'codex/v1-memory-md',
  line: 1,
  endLine: 1,
  message:
    "MEMORY.md is missing from the result. Codex's v1 consolidation requires a regular MEMORY.md and fails the run without one (failed_invalid_artifacts).",
});

/**
 * Checks files as they would land (`null`: the file is deleted), for the apply gate of a consolidation proposal:
 * the summary's first line (and, for v2, Codex's `is_valid_v2_summary`), MEMORY.md for v1, the secret gate
 * (`secret-gate.ts`), and pointer targets when `options.rolloutSummaries` is given. Files not in the map are not judged.
 */
export function validateResultFiles(
  files: ReadonlyMap<string, string | null>,
  version: MemoryVersion,
  options: ResultFileOptions = {},
): Validation {
  const diagnostics: PathDiagnostic[] = [];
  for (const [path, content] of files) {
    if (path === FILES.summary) appendAll(diagnostics, at(path, summaryChecks(content, version)));
    if (path === FILES.memory && version === 'v1' && content === null) diagnostics.push(...at(path, [memoryMissing()]));
    if (content === null || !path.endsWith('.md')) continue;
    appendAll(diagnostics, at(path, gateSecretDiagnostics(secretDiagnostics(content), content, options.live?.get(path) ?? null)));
    if (options.rolloutSummaries && (path === FILES.summary || path === FILES.memory)) {
      appendAll(diagnostics, at(path, pointerDiagnostics(path, content, version, options.rolloutSummaries)));
    }
  }
  return finish(diagnostics);
}

/** A staged file's text; null when it cannot be read (absent, a folder; a FIFO an engine left is never waited on). */
async function readText(root: string, path: string): Promise<string | null> {
  return readRegularFile(join(root, path), path, NO_CAP).then(
    (file) => file.bytes.toString('utf8'),
    () => null,
  );
}

/** Kinds the consolidation itself writes: always linted, whatever else changed. */
const ARTIFACT_KINDS: ReadonlySet<FileKind> = new Set<FileKind>(['summary', 'memory', 'skill', 'skill-file']);

/**
 * The staged files to lint: every symlink (Codex fails on any), the artifacts, and `only` (the files the sync or
 * the engine changed). Rollout summaries the run left as Codex wrote them are not the result being judged, and
 * linting 4,096 of them took seconds on a heavy home.
 */
async function artifactList(stagingRoot: string, version: MemoryVersion, only: ReadonlySet<string> | undefined): Promise<FileList> {
  const list = await listMemoryRoot(stagingRoot, version);
  if (!only) return list;
  return { ...list, files: list.files.filter((f) => f.symlink || ARTIFACT_KINDS.has(f.kind) || only.has(f.path)) };
}

/** A staged file's diagnostics through the secret gate, reading its text (and the live one) only when it has a finding. */
async function gatedFile(
  stagingRoot: string,
  liveRoot: string | undefined,
  path: string,
  found: LintDiagnostic[],
): Promise<LintDiagnostic[]> {
  if (!found.some((d) => d.rule.startsWith('secrets/'))) return found;
  const text = await readText(stagingRoot, path);
  if (text === null) return found;
  return gateSecretDiagnostics(found, text, liveRoot === undefined ? null : await readText(liveRoot, path));
}

/**
 * Codex's `validate_consolidation_artifacts_for_version` on a staged folder (no symlinks anywhere, `.git/` included;
 * v1: MEMORY.md a regular file; the summary starts with `v1`; v2: `is_valid_v2_summary`) plus our lint: the secret
 * gate (against `options.liveRoot`, the live folder the run started from) and pointer targets. `ok` is false iff a
 * diagnostic is an error.
 */
export async function validateStaged(
  stagingRoot: string,
  version: MemoryVersion,
  options: { only?: ReadonlySet<string>; liveRoot?: string } = {},
): Promise<Validation> {
  const report = await lintRoot(stagingRoot, version, { list: await artifactList(stagingRoot, version, options.only) });
  const diagnostics: PathDiagnostic[] = [];
  for (const file of report.files) {
    if (file.path === FILES.workspaceDiff) continue; // Generated from the other files: their findings are already listed.
    appendAll(diagnostics, at(file.path, await gatedFile(stagingRoot, options.liveRoot, file.path, file.diagnostics)));
  }
  const names = await readdir(join(stagingRoot, FILES.rolloutSummariesDir), { withFileTypes: true }).catch(() => []);
  const existing = new Set(names.filter((e) => e.isFile()).map((e) => e.name));
  for (const path of [FILES.summary, FILES.memory]) {
    const text = await readText(stagingRoot, path);
    if (text !== null) appendAll(diagnostics, at(path, pointerDiagnostics(path, text, version, existing)));
  }
  return finish(diagnostics);
}

/** The pool task: `validateStaged` with the touched paths as a plain list (a Set survives cloning, a list reads better). */
export function validateTask(input: {
  stagingRoot: string;
  version: MemoryVersion;
  only?: string[];
  liveRoot?: string;
}): Promise<Validation> {
  return validateStaged(input.stagingRoot, input.version, { only: input.only ? new Set(input.only) : undefined, liveRoot: input.liveRoot });
}
