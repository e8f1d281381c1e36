// Where earlier imports came from: our recorded provenance (and Cursor's header line), so an import removes only its own.
import { isAbsolute } from 'node:path';
import type { MemoryVersion } from '../../../shared/domain';
import type { ImportSource } from '../../../shared/import';
import type { StudioDb } from '../studio-db';
import { IMPORT_RESOURCES_DIR } from './instructions';

/** The source an earlier import of one project key was read from, as recorded by the last Apply that wrote it. */
export interface EarlierSource {
  tool: string;
  /** Null in records made before source homes were recorded, and for a Cursor header line. */
  sourceHome: string | null;
  sourcePaths: string[];
}

/** The recorded source of `resources/<key>/` in a root of this version, or null when nothing records one. */
export type EarlierImports = (version: MemoryVersion, key: string) => EarlierSource | null;

export const noEarlierImports: EarlierImports = () => null;

interface Row {
  version: MemoryVersion;
  rel_path: string;
  tool: string;
  source_path: string;
  source_home: string | null;
  proposal_id: string;
}

const PREFIX = `${IMPORT_RESOURCES_DIR}/`;

/**
 * Reads, once per plan, the provenance of every applied import file that was really written (its proposal file applied);
 * per (version, key) the newest Apply wins, since a later import from elsewhere made that folder its own.
 */
export function earlierImportsOf(db: StudioDb): EarlierImports {
  const rows = db
    .stmt<[], Row>(
      `SELECT v.version, v.rel_path, v.tool, v.source_path, v.source_home, v.proposal_id
       FROM proposal_provenance v
       JOIN proposals p ON p.id = v.proposal_id
       JOIN proposal_files f ON f.proposal_id = v.proposal_id AND f.version = v.version AND f.rel_path = v.rel_path
       WHERE p.status = 'applied' AND p.source = 'import' AND f.status = 'applied'
       ORDER BY p.applied_at, p.rowid, v.ord`,
    )
    .all();
  const latest = new Map<string, { proposal: string; source: EarlierSource }>();
  for (const row of rows) {
    if (!row.rel_path.startsWith(PREFIX)) continue;
    const rest = row.rel_path.slice(PREFIX.length);
    const slash = rest.indexOf('/');
    const key = slash < 0 ? rest : rest.slice(0, slash);
    const id = `${row.version}\0${key}`;
    const current = latest.get(id);
    if (!current || current.proposal !== row.proposal_id) {
      latest.set(id, {
        proposal: row.proposal_id,
        source: { tool: row.tool, sourceHome: row.source_home, sourcePaths: [row.source_path] },
      });
    } else current.source.sourcePaths.push(row.source_path);
  }
  return (version, key) => latest.get(`${version}\0${key}`)?.source ?? null;
}

const HEADER = /^<!-- imported-from: cursor; source: ([^;]*);/m;

/** Cursor files carry `<!-- imported-from: cursor; source: … -->`: the source of an import no record of ours knows. */
export function headerSource(files: ReadonlyMap<string, string | null>): EarlierSource | null {
  const paths: string[] = [];
  for (const text of files.values()) {
    const match = text === null ? null : HEADER.exec(text.slice(0, 4096));
    if (!match?.[1]) continue;
    try {
      paths.push(decodeURIComponent(match[1]));
    } catch {
      // A damaged header names no source: as good as none.
    }
  }
  return paths.length > 0 ? { tool: 'cursor', sourceHome: null, sourcePaths: paths } : null;
}

const within = (path: string, home: string) =>
  path === home || path.startsWith(`${home}/`) || path.startsWith(`${home}\\`) || path.startsWith(`${home}#`);

/** Whether an earlier import came from this run's source: same tool, and the same source home (or a source path inside one). */
export function sameSource(earlier: EarlierSource, from: ImportSource, sourceHomes: readonly string[]): boolean {
  if (earlier.tool !== from) return false;
  if (earlier.sourceHome !== null) return sourceHomes.includes(earlier.sourceHome);
  return earlier.sourcePaths.length > 0 && earlier.sourcePaths.every((p) => isAbsolute(p) && sourceHomes.some((home) => within(p, home)));
}
