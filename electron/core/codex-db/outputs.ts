// Reads `stage1_outputs`: selection, usage, staleness and blank rows, judged with Codex's own Phase 2 selection rules.
import type Database from 'better-sqlite3';
import type { MemoriesConfig } from '../../../shared/domain';
import type { OutputStats } from '../../../shared/health';
import type { TableView } from './schema';
import { tableView } from './schema';
import type { ThreadRow } from './threads';
import { noHorizon, type Horizon } from './horizon';
import { intOrNull, unixTime } from './time';

export const OUTPUT_COLUMNS = [
  'thread_id',
  'source_updated_at',
  'raw_memory',
  'rollout_summary',
  'rollout_slug',
  'generated_at',
  'usage_count',
  'last_usage',
  'selected_for_phase2',
  'selected_for_phase2_source_updated_at',
] as const;

export function outputsView(columns: ReadonlySet<string>): TableView {
  return tableView('stage1_outputs', columns, OUTPUT_COLUMNS);
}

interface OutputRow {
  thread_id: string;
  source_updated_at: unknown;
  usage_count: unknown;
  last_usage: unknown;
  selected_for_phase2: unknown;
  raw_blank: number | null;
  summary_blank: number | null;
}

/** Per-thread usage as Codex counts it (`record_stage1_output_usage`): usage_count and last_usage. */
export interface DbUsage {
  threadId: string;
  usageCount: number | null;
  lastUsage: number | null;
  sourceUpdatedAt: number | null;
}

/** Per thread: whether raw_memory and rollout_summary are blank (1), not (0), or NULL. */
export type BlankFlags = Map<string, [number | null, number | null]>;

/**
 * The blank tests read every raw memory and summary (megabytes of text on a big home), so they are kept apart: the
 * caller may hand in flags it remembered for this very DB file.
 */
export function readBlankFlags(db: Database.Database, view: TableView): BlankFlags {
  // SQLite's trim() strips spaces only: the same blank test as Codex's selection query, on purpose.
  const rows = db
    .prepare(`SELECT thread_id, length(trim(raw_memory)) = 0, length(trim(rollout_summary)) = 0 FROM (${view.sql})`)
    .raw(true)
    .all() as Array<[string, number | null, number | null]>;
  return new Map(rows.map(([id, raw, summary]) => [id, [raw, summary]]));
}

function readRows(db: Database.Database, view: TableView, blanks: BlankFlags): OutputRow[] {
  const rows = db
    .prepare(`SELECT thread_id, source_updated_at, usage_count, last_usage, selected_for_phase2 FROM (${view.sql})`)
    .all() as OutputRow[];
  for (const row of rows) [row.raw_blank, row.summary_blank] = blanks.get(row.thread_id) ?? [null, null];
  return rows;
}

function isFresh(lastUsage: number | null, sourceUpdatedAt: number | null, cutoff: number): boolean {
  if (lastUsage !== null) return lastUsage >= cutoff;
  return sourceUpdatedAt !== null && sourceUpdatedAt >= cutoff;
}

/** The oldest last use (or update) that still counts as used: now minus max_unused_days. */
export function unusedCutoff(nowSec: number, config: MemoriesConfig): number {
  return nowSec - Math.max(0, config.maxUnusedDays) * 86_400;
}

export function unusedCutoffTime(cutoff: number): OutputStats['unusedCutoff'] {
  return unixTime(cutoff) ?? { seconds: cutoff, iso: '' };
}

function emptyStats(cutoff: number): OutputStats {
  return {
    total: 0,
    selectedForPhase2: 0,
    withUsage: 0,
    neverUsed: 0,
    staleByMaxUnusedDays: 0,
    prunable: 0,
    blankRawMemory: 0,
    blankRolloutSummary: 0,
    blankBoth: 0,
    notEnabledThread: 0,
    eligibleForPhase2: 0,
    nextSelectionSize: 0,
    unusedCutoff: unusedCutoffTime(cutoff),
    newestSourceUpdatedAt: null,
    newestUsage: null,
  };
}

/** Counts over every stage-1 row; `threads` null means the catalog could not be read, so thread checks are skipped. */
export function readOutputStats(
  db: Database.Database,
  view: TableView,
  threads: Map<string, ThreadRow> | null,
  config: MemoriesConfig,
  nowSec: number,
  blanks: BlankFlags = readBlankFlags(db, view),
  horizon: Horizon = noHorizon(nowSec),
): OutputStats {
  const cutoff = unusedCutoff(nowSec, config);
  const keep = nowSec - cutoff;
  const stats = emptyStats(cutoff);
  let newestSource: number | null = null;
  let newestUsage: number | null = null;
  for (const row of readRows(db, view, blanks)) {
    const source = intOrNull(row.source_updated_at);
    const last = intOrNull(row.last_usage);
    const usage = intOrNull(row.usage_count) ?? 0;
    const selected = (intOrNull(row.selected_for_phase2) ?? 0) !== 0;
    const rawBlank = row.raw_blank === 1;
    const summaryBlank = row.summary_blank === 1;
    const fresh = isFresh(last, source, cutoff);
    horizon.at((last ?? source ?? -Infinity) + keep); // the row falls out of max_unused_days then
    const thread = threads?.get(row.thread_id);
    const enabled = threads === null || thread?.memoryMode === 'enabled';
    stats.total++;
    if (selected) stats.selectedForPhase2++;
    if (usage > 0) stats.withUsage++;
    else stats.neverUsed++;
    if (!fresh) stats.staleByMaxUnusedDays++;
    if (!fresh && !selected) stats.prunable++;
    if (rawBlank) stats.blankRawMemory++;
    if (summaryBlank) stats.blankRolloutSummary++;
    if (rawBlank && summaryBlank) stats.blankBoth++;
    if (!enabled) stats.notEnabledThread++;
    if (fresh && enabled && !(rawBlank && summaryBlank)) stats.eligibleForPhase2++;
    if (source !== null && (newestSource === null || source > newestSource)) newestSource = source;
    if (last !== null && (newestUsage === null || last > newestUsage)) newestUsage = last;
  }
  stats.nextSelectionSize = Math.min(stats.eligibleForPhase2, config.maxRawMemoriesForConsolidation);
  stats.newestSourceUpdatedAt = unixTime(newestSource);
  stats.newestUsage = unixTime(newestUsage);
  return stats;
}

/** usage_count / last_usage / source_updated_at of every row (for provenance: DB usage per thread). */
export function readDbUsage(db: Database.Database, view: TableView): Map<string, DbUsage> {
  const out = new Map<string, DbUsage>();
  const rows = db.prepare(`SELECT thread_id, usage_count, last_usage, source_updated_at FROM (${view.sql})`).all() as Array<
    Record<string, unknown>
  >;
  for (const r of rows) {
    if (typeof r.thread_id !== 'string') continue;
    out.set(r.thread_id, {
      threadId: r.thread_id,
      usageCount: intOrNull(r.usage_count),
      lastUsage: intOrNull(r.last_usage),
      sourceUpdatedAt: intOrNull(r.source_updated_at),
    });
  }
  return out;
}
