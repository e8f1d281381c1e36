// Folds attributed citation blocks and Codex's DB counters into per-file, per-range and per-thread usage.
import type { MemoryVersion } from '../../../shared/domain';
import type { DbProblem, UnixTime } from '../../../shared/health';
import type { FileUsage, RangeUsage, ThreadUsage, UsageReport } from '../../../shared/provenance';
import type { DbUsage } from '../codex-db/outputs';
import { nowSeconds, requiredTime, unixTime } from '../codex-db/time';
import type { AttributedBlock, AttributedEntry } from './attribution';
import type { ScanAllResult } from './session-scan';

export type DbUsageByVersion = Map<MemoryVersion, Map<string, DbUsage>>;

/** First/last time and the distinct citing threads of a group of citations. */
class Tally {
  count = 0;
  first: number | null = null;
  last: number | null = null;
  readonly threads = new Set<string>();

  add(time: UnixTime | null, citingThread: string | null): void {
    this.count++;
    if (time) {
      if (this.first === null || time.seconds < this.first) this.first = time.seconds;
      if (this.last === null || time.seconds > this.last) this.last = time.seconds;
    }
    if (citingThread) this.threads.add(citingThread);
  }

  summary(): { count: number; firstCitedAt: UnixTime | null; lastCitedAt: UnixTime | null; citingThreadIds: string[] } {
    return {
      count: this.count,
      firstCitedAt: unixTime(this.first),
      lastCitedAt: unixTime(this.last),
      citingThreadIds: [...this.threads].sort(),
    };
  }
}

interface FileGroup {
  head: AttributedEntry;
  tally: Tally;
  ranges: Map<string, { lineStart: number; lineEnd: number; tally: Tally }>;
}

/** Citation counts per (version, path), with each distinct line range inside. */
export function aggregateFiles(blocks: readonly AttributedBlock[]): FileUsage[] {
  const groups = new Map<string, FileGroup>();
  for (const block of blocks) {
    for (const e of block.entries) {
      const key = `${e.version}\0${e.path}`;
      let group = groups.get(key);
      if (!group) {
        group = { head: e, tally: new Tally(), ranges: new Map() };
        groups.set(key, group);
      }
      group.tally.add(block.citation.time, block.scan.threadId);
      const rangeKey = `${e.entry.lineStart}-${e.entry.lineEnd}`;
      let range = group.ranges.get(rangeKey);
      if (!range) {
        range = { lineStart: e.entry.lineStart, lineEnd: e.entry.lineEnd, tally: new Tally() };
        group.ranges.set(rangeKey, range);
      }
      range.tally.add(block.citation.time, block.scan.threadId);
    }
  }
  const files: FileUsage[] = [];
  for (const g of groups.values()) {
    const ranges: RangeUsage[] = [...g.ranges.values()]
      .sort((a, b) => a.lineStart - b.lineStart || a.lineEnd - b.lineEnd)
      .map((r) => ({ lineStart: r.lineStart, lineEnd: r.lineEnd, ...r.tally.summary() }));
    files.push({
      version: g.head.version,
      path: g.head.path,
      kind: g.head.kind,
      pathValid: g.head.pathValid,
      versionBasis: g.head.basis,
      ...g.tally.summary(),
      ranges,
    });
  }
  return files.sort((a, b) => b.count - a.count || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || (a.version < b.version ? -1 : 1));
}

/** Per thread: blocks naming it in rollout ids, and Codex's own counters in each version's DB. */
export function aggregateThreads(blocks: readonly AttributedBlock[], usage: DbUsageByVersion): ThreadUsage[] {
  const cited = new Map<string, Tally>();
  const byVersion = new Map<string, { v1: number; v2: number }>();
  for (const block of blocks) {
    for (const id of block.threadIds) {
      let tally = cited.get(id);
      if (!tally) cited.set(id, (tally = new Tally()));
      tally.add(block.citation.time, block.scan.threadId);
      let split = byVersion.get(id);
      if (!split) byVersion.set(id, (split = { v1: 0, v2: 0 }));
      split[block.version] += 1;
    }
  }
  const ids = new Set(cited.keys());
  for (const rows of usage.values()) {
    for (const row of rows.values()) if ((row.usageCount ?? 0) > 0 || row.lastUsage !== null) ids.add(row.threadId);
  }
  const threads: ThreadUsage[] = [];
  for (const id of ids) {
    const tally = cited.get(id);
    const db: ThreadUsage['db'] = [];
    for (const [version, rows] of usage) {
      const row = rows.get(id);
      if (row) db.push({ version, usageCount: row.usageCount, lastUsage: unixTime(row.lastUsage) });
    }
    threads.push({
      threadId: id,
      citedInBlocks: tally?.count ?? 0,
      citedInBlocksByVersion: byVersion.get(id) ?? { v1: 0, v2: 0 },
      lastCitedAt: unixTime(tally?.last ?? null),
      db,
    });
  }
  return threads.sort((a, b) => b.citedInBlocks - a.citedInBlocks || (a.threadId < b.threadId ? -1 : 1));
}

/** The usage report from scans already made (the index keeps them) and Codex's counters. */
export function usageReport(
  scanned: ScanAllResult,
  blocks: readonly AttributedBlock[],
  db: { usage: DbUsageByVersion; problems: DbProblem[] },
  now: Date | undefined,
  started: number,
): UsageReport {
  const scans = scanned.scans;
  return {
    kind: 'memory_usage',
    generatedAt: requiredTime(nowSeconds(now)),
    sessions: {
      scanned: scans.length,
      withCitations: scans.filter((s) => s.citations.length > 0).length,
      citationBlocks: blocks.length,
      unreadable: scans.filter((s) => s.error !== null).length,
      cacheHits: scanned.cacheHits,
    },
    files: aggregateFiles(blocks),
    threads: aggregateThreads(blocks, db.usage),
    problems: db.problems,
    elapsedMs: Math.round((performance.now() - started) * 10) / 10,
  };
}
