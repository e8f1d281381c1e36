// Which Codex wrote a home, read from its files: the sqlx migration records of every Codex DB file against the releases
// Memory Studio verified (docs/compat/), the newest cli_version, and the DB files no verified release creates.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { DbMigrations, DbName, MigrationRef, OtherDbFile } from '../../../shared/health';
import { knownCodexDbFiles, REFERENCE_SCHEMA, VERIFIED_RELEASES } from '../codex-schema';
import { closeQuietly, openCodexFile } from './open-db';
import { tableColumns } from './schema';

/** One `_sqlx_migrations` row, its checksum as upper-case hex (as the captures and verified.ts hold it). */
export interface MigrationRow {
  version: number;
  description: string;
  success: boolean;
  checksum: string;
}

/** A file's WAL at rest is read into memory up to this size; a bigger one (logs) is opened directly. */
const OTHER_FILE_SNAPSHOT_MAX_BYTES = 16 * 1024 * 1024;

/** The sqlx records of an opened DB, oldest first; null when it has no `_sqlx_migrations` table. */
export function migrationRows(db: Database.Database): MigrationRow[] | null {
  const columns = tableColumns(db, '_sqlx_migrations');
  if (!columns) return null;
  const description = columns.has('description') ? 'description' : "''";
  const checksum = columns.has('checksum') ? 'hex(checksum)' : "''";
  const rows = db
    .prepare(`SELECT version, ${description} AS description, success, ${checksum} AS checksum FROM _sqlx_migrations ORDER BY version`)
    .all() as Array<{ version: number | bigint; description: unknown; success: unknown; checksum: unknown }>;
  return rows.map((r) => ({
    version: Number(r.version),
    description: typeof r.description === 'string' ? r.description : '',
    success: Number(r.success) === 1,
    checksum: typeof r.checksum === 'string' ? r.checksum.toUpperCase() : '',
  }));
}

const key = (version: number, checksum: string): string => `${version}:${checksum}`;

/** Every (migration, checksum) the reference or a verified release applies to `file`. */
function knownMigrations(file: string): Set<string> {
  const known = new Set((REFERENCE_SCHEMA.databases[file]?.migrations ?? []).map((m) => key(m.version, m.checksum)));
  for (const release of VERIFIED_RELEASES) for (const m of release.databases[file] ?? []) known.add(key(m.version, m.checksum));
  return known;
}

/** Verified releases whose fresh home carries exactly these applied migrations in `file`, oldest first. */
function matchingReleases(file: string, applied: readonly MigrationRow[]): string[] {
  const mine = applied.map((m) => key(m.version, m.checksum)).sort();
  return VERIFIED_RELEASES.filter((release) => {
    const theirs = (release.databases[file] ?? []).map((m) => key(m.version, m.checksum)).sort();
    return release.databases[file] !== undefined && theirs.length === mine.length && theirs.every((k, i) => k === mine[i]);
  }).map((release) => release.version);
}

function referenceLatest(file: string): number | null {
  const versions = (REFERENCE_SCHEMA.databases[file]?.migrations ?? []).map((m) => m.version);
  return versions.length > 0 ? Math.max(...versions) : null;
}

/** One file's records compared with every verified release; `rows` null: no migration table, `problem`: not read. */
export function dbMigrations(
  file: string,
  db: DbName | null,
  path: string,
  rows: readonly MigrationRow[] | null,
  problem: string | null = null,
): DbMigrations {
  const all = rows ?? [];
  const applied = all.filter((r) => r.success);
  const known = knownMigrations(file);
  const unknown: MigrationRef[] = applied
    .filter((r) => !known.has(key(r.version, r.checksum)))
    .map((r) => ({ version: r.version, description: r.description }));
  return {
    file,
    db,
    path,
    applied: applied.length,
    latest: all.length > 0 ? (all[all.length - 1]?.version ?? null) : null,
    knownLatest: referenceLatest(file),
    unknown,
    failed: all.filter((r) => !r.success).map((r) => r.version),
    matches: rows && applied.length > 0 && problem === null ? matchingReleases(file, applied) : [],
    problem,
  };
}

/**
 * Codex's DB files in the SQLite folder that Memory Studio does not read (`thread_history_1.sqlite`, `logs_2.sqlite`,
 * …; any file a verified release creates, except `skip`): opened read-only for their migration records only.
 */
export async function otherCodexDbMigrations(sqliteHome: string, skip: ReadonlySet<string>): Promise<DbMigrations[]> {
  const present = new Set(await readdir(sqliteHome).catch(() => [] as string[]));
  const out: DbMigrations[] = [];
  for (const file of knownCodexDbFiles()) {
    if (skip.has(file) || !present.has(file)) continue;
    const path = join(sqliteHome, file);
    let db: Database.Database | null = null;
    try {
      db = await openCodexFile(path, { snapshotMaxBytes: OTHER_FILE_SNAPSHOT_MAX_BYTES });
      out.push(dbMigrations(file, null, path, migrationRows(db)));
    } catch (error) {
      out.push(dbMigrations(file, null, path, null, error instanceof Error ? error.message : String(error)));
    } finally {
      if (db) closeQuietly(db);
    }
  }
  return out;
}

/** `0.169.0` < `0.170.1`; anything unparsable sorts first. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => (/^\d+(\.\d+)*/.exec(v)?.[0] ?? '').split('.').filter(Boolean).map(Number);
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/** The newest `threads.cli_version` (the Codex release that last ran here), or null. */
export function newestCliVersion(state: Database.Database): string | null {
  const columns = tableColumns(state, 'threads');
  if (!columns?.has('cli_version')) return null;
  const rows = state.prepare("SELECT DISTINCT cli_version AS v FROM threads WHERE cli_version <> ''").all() as Array<{ v: unknown }>;
  let best: string | null = null;
  for (const { v } of rows) if (typeof v === 'string' && (best === null || compareVersions(v, best) > 0)) best = v;
  return best;
}

function otherDbNote(name: string): string {
  const numbered = /^(state|memories|memories_v2|logs|goals|queue|thread_history)_(\d+)\.sqlite$/.exec(name);
  if (numbered)
    return `Not a file any verified Codex uses: probably another Codex release's ${numbered[1]} database (Memory Studio reads the files the verified releases use).`;
  return 'Not a database any verified Codex creates.';
}

/** `*.sqlite` files in the SQLite folder that no verified Codex creates: listed, never opened. */
export async function otherDbFiles(sqliteHome: string): Promise<OtherDbFile[]> {
  const known = new Set(knownCodexDbFiles());
  const names = (await readdir(sqliteHome).catch(() => [] as string[])).filter((n) => n.endsWith('.sqlite') && !known.has(n)).sort();
  const out: OtherDbFile[] = [];
  for (const name of names) {
    const info = await stat(join(sqliteHome, name)).catch(() => null);
    if (info?.isFile()) out.push({ name, path: join(sqliteHome, name), bytes: info.size, note: otherDbNote(name) });
  }
  return out;
}
