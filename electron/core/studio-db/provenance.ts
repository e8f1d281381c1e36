// Provenance of imported files, stored with the import proposal (Studio DB `proposal_provenance`) and shown on its history entry.
import type { FileProvenance } from '../../../shared/review';
import type { StudioDb } from './';

interface ProvenanceRow {
  proposal_id: string;
  version: FileProvenance['version'];
  rel_path: string;
  tool: string;
  source_path: string;
  source_mtime_ms: number;
  source_sha256: string;
  source_home: string | null;
}

/** Inserts the rows; run it inside the transaction that creates the proposal, so neither exists without the other. */
export function insertProvenance(db: StudioDb, proposalId: string, rows: readonly FileProvenance[]): void {
  const insert = db.stmt(
    `INSERT INTO proposal_provenance (proposal_id, ord, version, rel_path, tool, source_path, source_mtime_ms, source_sha256, source_home)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  rows.forEach((r, ord) =>
    insert.run(proposalId, ord, r.version, r.relPath, r.tool, r.sourcePath, r.sourceMtimeMs, r.sourceSha256, r.sourceHome ?? null),
  );
}

export function recordProvenance(db: StudioDb, proposalId: string, rows: readonly FileProvenance[]): void {
  db.transaction(() => insertProvenance(db, proposalId, rows));
}

/**
 * Provenance per proposal id, for the given proposals only (proposals without any are absent from the map). The ids
 * go in as one JSON array, so the query reads only their rows (by the primary key's prefix) with one cached statement.
 */
export function loadProvenance(db: StudioDb, proposalIds: readonly string[]): Map<string, FileProvenance[]> {
  const out = new Map<string, FileProvenance[]>();
  if (proposalIds.length === 0) return out;
  const rows = db
    .stmt<[string], ProvenanceRow>(
      `SELECT proposal_id, version, rel_path, tool, source_path, source_mtime_ms, source_sha256, source_home FROM proposal_provenance
       WHERE proposal_id IN (SELECT value FROM json_each(?)) ORDER BY proposal_id, ord`,
    )
    .all(JSON.stringify([...new Set(proposalIds)]));
  for (const r of rows) {
    const list = out.get(r.proposal_id) ?? [];
    list.push({
      version: r.version,
      relPath: r.rel_path,
      tool: r.tool,
      sourcePath: r.source_path,
      sourceMtimeMs: r.source_mtime_ms,
      sourceSha256: r.source_sha256,
      sourceHome: r.source_home,
    });
    out.set(r.proposal_id, list);
  }
  return out;
}
