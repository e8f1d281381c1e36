// The rollout table's rows from the summaries' heads and the usage report (read now, or kept by the index).
import type { MemoryVersion } from '../../../shared/domain';
import type { RolloutRow, RolloutTable } from '../../../shared/inspect';
import type { UsageReport } from '../../../shared/provenance';
import { projectName, type SummaryHead } from './summary-heads';

/** The table from the summaries' heads and the usage report, however they were read (now, or from the index). */
export function rolloutTable(version: MemoryVersion, heads: readonly SummaryHead[], usage: UsageReport, started: number): RolloutTable {
  const citationsByPath = new Map(usage.files.filter((f) => f.version === version).map((f) => [f.path, f.count]));
  const threads = new Map(usage.threads.map((t) => [t.threadId, t]));
  const rows = heads.map(({ file, header, title }): RolloutRow => {
    const thread = header?.threadId ? threads.get(header.threadId) : undefined;
    const db = thread?.db.find((d) => d.version === version);
    return {
      path: file.path,
      threadId: header?.threadId ?? null,
      updatedAt: header?.updatedAt ?? null,
      cwd: header?.cwd ?? null,
      project: projectName(header?.cwd ?? null),
      gitBranch: header?.gitBranch ?? null,
      title,
      bytes: file.size,
      mtimeMs: file.mtimeMs,
      dbUsageCount: db?.usageCount ?? null,
      dbLastUsage: db?.lastUsage?.seconds ?? null,
      // Only blocks attributed to this root: the same thread's summary in the other root was not what the session read.
      citations: (citationsByPath.get(file.path) ?? 0) + (thread?.citedInBlocksByVersion[version] ?? 0),
    };
  });
  const notes = usage.problems.map((p) => p.message);
  if (heads.some((h) => h.header === null))
    notes.push('Some rollout summaries have no Codex header (thread_id, updated_at, cwd), so their columns are empty.');
  return { version, rows, notes, elapsedMs: Math.round(performance.now() - started) };
}
