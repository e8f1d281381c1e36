// Which Codex wrote a home: the migrations its DBs carry against the pinned reference, the newest cli_version, other DB files.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { DbName, DbMigrations, OtherDbFile } from '../../../shared/health';
import { knownMigrationVersions, REFERENCE_SCHEMA } from '../codex-schema';
import { MEMORY_DB_FILES, STATE_DB_FILE } from '../codex/constants';
import { tableColumns } from './schema';

const FILE_OF: Record<DbName, string> = { state: STATE_DB_FILE, memories_v1: MEMORY_DB_FILES.v1, memories_v2: MEMORY_DB_FILES.v2 };

/** The sqlx migration records of one opened DB compared with the reference Codex's; null when it has none. */
export function readMigrations(db: Database.Database, name: DbName, path: string): DbMigrations | null {
  if (!tableColumns(db, '_sqlx_migrations'))
    return { db: name, path, applied: 0, latest: null, knownLatest: knownLatest(name), unknown: [], failed: [] };
  const rows = db.prepare('SELECT version, success FROM _sqlx_migrations ORDER BY version').all() as Array<{
    version: number;
    success: number;
  }>;
  const known = new Set(knownMigrationVersions(FILE_OF[name]));
  return {
    db: name,
    path,
    applied: rows.filter((r) => r.success === 1).length,
    latest: rows.length > 0 ? Number(rows[rows.length - 1]?.version) : null,
    knownLatest: knownLatest(name),
    unknown: rows.map((r) => Number(r.version)).filter((v) => !known.has(v)),
    failed: rows.filter((r) => r.success !== 1).map((r) => Number(r.version)),
  };
}

function knownLatest(name: DbName): number | null {
  const versions = knownMigrationVersions(FILE_OF[name]);
  return versions.length > 0 ? Math.max(...versions) : null;
}

/** `0.169.0` < `0.170.1`; anything unparsable sorts first. */
function compareVersions(a: string, b: string): number {
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
    return `Not a file Codex ${REFERENCE_SCHEMA.codexVersion} uses: probably another Codex release's ${numbered[1]} database (Memory Studio reads the files ${REFERENCE_SCHEMA.codexVersion} uses).`;
  return `Not a database Codex ${REFERENCE_SCHEMA.codexVersion} creates.`;
}

/** `*.sqlite` files in the SQLite folder that the reference Codex does not create: listed, never opened. */
export async function otherDbFiles(sqliteHome: string): Promise<OtherDbFile[]> {
  const known = new Set(Object.keys(REFERENCE_SCHEMA.databases));
  const names = (await readdir(sqliteHome).catch(() => [] as string[])).filter((n) => n.endsWith('.sqlite') && !known.has(n)).sort();
  const out: OtherDbFile[] = [];
  for (const name of names) {
    const info = await stat(join(sqliteHome, name)).catch(() => null);
    if (info?.isFile()) out.push({ name, path: join(sqliteHome, name), bytes: info.size, note: otherDbNote(name) });
  }
  return out;
}
