// Reads the thread catalog (`state_5.sqlite` threads): rollout paths, cwd, memory mode, archive state and times.
import type Database from 'better-sqlite3';
import type { MemoriesConfig } from '../../../shared/domain';
import type { ThreadStats } from '../../../shared/health';
import { INTERACTIVE_SESSION_SOURCES, MEMORY_MODES } from '../codex/constants';
import { tableColumns, tableView } from './schema';
import { noHorizon, type Horizon } from './horizon';
import { intOrNull, stringOrNull } from './time';

export interface ThreadRow {
  id: string;
  rolloutPath: string | null;
  cwd: string | null;
  /** `enabled` when the column predates the memory_mode migration (its default). */
  memoryMode: string;
  archived: boolean;
  /** Seconds; from `updated_at_ms` when present (what Phase 1 compares), else `updated_at`. */
  updatedAt: number | null;
  createdAt: number | null;
  source: string | null;
}

export interface ThreadCatalog {
  rows: Map<string, ThreadRow>;
  missingColumns: string[];
}

const THREAD_COLUMNS = [
  'id',
  'rollout_path',
  'cwd',
  'memory_mode',
  'archived',
  'archived_at',
  'updated_at',
  'updated_at_ms',
  'created_at',
  'created_at_ms',
  'source',
] as const;

type RawThread = Record<(typeof THREAD_COLUMNS)[number], unknown>;

function seconds(ms: unknown, sec: unknown): number | null {
  const fromMs = intOrNull(ms);
  return fromMs !== null ? Math.floor(fromMs / 1000) : intOrNull(sec);
}

function toThreadRow(raw: RawThread): ThreadRow | null {
  const id = stringOrNull(raw.id);
  if (!id) return null;
  const archivedFlag = intOrNull(raw.archived);
  return {
    id,
    rolloutPath: stringOrNull(raw.rollout_path),
    cwd: stringOrNull(raw.cwd),
    memoryMode: stringOrNull(raw.memory_mode) ?? 'enabled',
    archived: (archivedFlag !== null && archivedFlag !== 0) || raw.archived_at !== null,
    updatedAt: seconds(raw.updated_at_ms, raw.updated_at),
    createdAt: seconds(raw.created_at_ms, raw.created_at),
    source: typeof raw.source === 'string' ? raw.source : null,
  };
}

/** Every thread in the catalog, or null when the DB has no `threads` table. */
export function readThreadCatalog(db: Database.Database): ThreadCatalog | null {
  const columns = tableColumns(db, 'threads');
  if (!columns || !columns.has('id')) return null;
  const view = tableView('threads', columns, THREAD_COLUMNS);
  const rows = new Map<string, ThreadRow>();
  for (const raw of db.prepare(view.sql).iterate() as Iterable<RawThread>) {
    const row = toThreadRow(raw);
    if (row) rows.set(row.id, row);
  }
  return { rows, missingColumns: view.missing };
}

/** Counts by memory mode and archive state, and which interactive, enabled threads sit inside Phase 1's age window now. */
export function threadStats(
  rows: Iterable<ThreadRow>,
  config: MemoriesConfig,
  nowSec: number,
  horizon: Horizon = noHorizon(nowSec),
): ThreadStats {
  const stats: ThreadStats = {
    total: 0,
    byMode: { enabled: 0, disabled: 0, polluted: 0, other: 0 },
    archived: 0,
    phase1Window: { inWindow: 0, tooOld: 0, tooRecent: 0 },
    notInteractive: 0,
  };
  const oldest = nowSec - config.maxRolloutAgeDays * 86_400;
  const newest = nowSec - config.minRolloutIdleHours * 3_600;
  for (const t of rows) {
    stats.total++;
    const mode = (MEMORY_MODES as readonly string[]).includes(t.memoryMode) ? (t.memoryMode as keyof ThreadStats['byMode']) : 'other';
    stats.byMode[mode]++;
    if (t.archived) stats.archived++;
    if (!t.source || !INTERACTIVE_SESSION_SOURCES.includes(t.source)) {
      stats.notInteractive++;
      continue;
    }
    if (t.memoryMode !== 'enabled' || t.archived || t.updatedAt === null) continue;
    horizon.at(t.updatedAt + config.maxRolloutAgeDays * 86_400);
    horizon.at(t.updatedAt + config.minRolloutIdleHours * 3_600);
    if (t.updatedAt < oldest) stats.phase1Window.tooOld++;
    else if (t.updatedAt > newest) stats.phase1Window.tooRecent++;
    else stats.phase1Window.inWindow++;
  }
  return stats;
}
