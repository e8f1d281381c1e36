// Reads what columns a Codex table really has, so older and newer schemas are read without failing on a missing column.
import type Database from 'better-sqlite3';

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The table's column names, or null when the table does not exist. */
export function tableColumns(db: Database.Database, table: string): Set<string> | null {
  const rows = db.prepare(`PRAGMA table_info(${quoteIdent(table)})`).all() as Array<{ name: string }>;
  return rows.length === 0 ? null : new Set(rows.map((r) => r.name));
}

export interface TableView {
  /** A sub-select exposing every wanted column; absent ones read as NULL. Use as `FROM (${view.sql})`. */
  sql: string;
  missing: string[];
}

/**
 * A view of `table` with exactly `wanted` columns. Codex added columns over time (usage_count, last_usage,
 * selected_for_phase2_source_updated_at, memory_mode…); selecting NULL for absent ones keeps one set of queries.
 */
export function tableView(table: string, columns: ReadonlySet<string>, wanted: readonly string[]): TableView {
  const missing = wanted.filter((c) => !columns.has(c));
  const list = wanted.map((c) => (columns.has(c) ? quoteIdent(c) : `NULL AS ${quoteIdent(c)}`)).join(', ');
  return { sql: `SELECT ${list} FROM ${quoteIdent(table)}`, missing };
}
