// Lint rules that need the whole home: pointer targets exist, thread ids are known, and entries are still used.
import { join } from 'node:path';
import type { FileList, HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { LintReport } from '../../../shared/lint';
import { budgetForRoot } from '../budget';
import { parseMemoryFile } from '../formats';
import { buildSessionIndex, collectUsage } from '../sessions';
import { listMemoryRoot } from '../codex/workspace';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { merge, referenceFindings, refsOfParsed, type Ref } from './reference-rules';
import { readSummaryHeads } from './summary-heads';

export { referenceFindings, refsOfParsed, withReferenceFindings, type Ref, type ReferenceInputs } from './reference-rules';

async function refsOf(root: string, path: string, version: MemoryVersion): Promise<Ref[]> {
  const text = await readRegularFile(join(root, path), path, NO_CAP).then(
    (file) => file.bytes.toString('utf8'),
    () => null,
  );
  return text === null ? [] : refsOfParsed(parseMemoryFile(text, { path, version }));
}

export const emptyReport = (version: MemoryVersion): LintReport => ({
  version,
  files: [],
  counts: { error: 0, warning: 0, info: 0 },
  scannedFiles: 0,
});

/** One report from the per-file lint and the whole-home rules (the first one's scannedFiles is kept). */
export function mergeLintReports(base: LintReport, extra: LintReport): LintReport {
  return merge(base, new Map(extra.files.map((f) => [f.path, f.diagnostics])));
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
  const [index, usage, heads] = await Promise.all([
    buildSessionIndex(home, { readMeta: 'none' }),
    collectUsage(home),
    readSummaryHeads(
      root,
      summaries.filter((f) => wanted(f.path)),
    ),
  ]);
  const knownThreads = new Set([...index.entries.map((e) => e.threadId), ...usage.threads.map((t) => t.threadId)]);
  const extra = await referenceFindings(
    home,
    version,
    {
      files,
      knownThreads,
      usage,
      heads,
      refs: (path) => refsOf(root, path, version),
      budget: () => budgetForRoot(root, version).catch(() => null),
    },
    now,
    onlyPath,
  );
  return merge(report, extra);
}
