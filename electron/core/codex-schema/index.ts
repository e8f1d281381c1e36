// Codex's SQLite schemas as captured from the real reference Codex CLI: build a database Codex opens cleanly, know its migrations.
import type Database from 'better-sqlite3';
import { CODEX_0_171_0_SCHEMA } from './codex-0.171.0';
import type { CapturedDatabase, CodexSchemaCapture, VerifiedCodexRelease } from './types';
import { VERIFIED_CODEX_RELEASES } from './verified';

export type { CapturedDatabase, CodexSchemaCapture, VerifiedCodexRelease, VerifiedMigration } from './types';

/**
 * The Codex release the demo homes imitate and the interop suite runs by default (DEFAULT_CODEX_VERSION in
 * test/interop/install-codex.mjs; a unit test keeps the two equal). Re-pinned with scripts/capture-codex-schema.mjs.
 */
export const REFERENCE_SCHEMA: CodexSchemaCapture = CODEX_0_171_0_SCHEMA;

export function capturedDatabase(fileName: string, capture: CodexSchemaCapture = REFERENCE_SCHEMA): CapturedDatabase {
  const db = capture.databases[fileName];
  if (!db) throw new Error(`No captured Codex ${capture.codexVersion} schema for ${fileName}.`);
  return db;
}

/** Every release `npm run compat` verified (docs/compat/<version>.md says so), oldest first. */
export const VERIFIED_RELEASES: readonly VerifiedCodexRelease[] = VERIFIED_CODEX_RELEASES;

/** Every SQLite file the reference or a verified release creates, sorted. */
export function knownCodexDbFiles(): string[] {
  const names = new Set(Object.keys(REFERENCE_SCHEMA.databases));
  for (const release of VERIFIED_RELEASES) for (const name of Object.keys(release.databases)) names.add(name);
  return [...names].sort();
}

/** `installed_on` as SQLite's CURRENT_TIMESTAMP prints it. */
function sqliteTimestamp(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** A seed row's times (`…_at` columns) moved to the home's own clock. */
function seedRow(row: Record<string, string | number | null>, nowSec: number): Record<string, string | number | null> {
  const out: Record<string, string | number | null> = {};
  for (const [column, value] of Object.entries(row)) out[column] = typeof value === 'number' && column.endsWith('_at') ? nowSec : value;
  return out;
}

/**
 * Creates Codex's schema in an empty database exactly as the reference Codex (or the release `capture` was taken
 * from) left it: its pragmas, every table, index and trigger in creation order, the `_sqlx_migrations` records
 * (checksums byte for byte, so sqlx sees every migration as applied and unchanged) and the seed rows.
 * `installedAtSec` dates the migrations.
 */
export function createCodexSchema(
  db: Database.Database,
  fileName: string,
  installedAtSec: number,
  capture: CodexSchemaCapture = REFERENCE_SCHEMA,
): void {
  const captured = capturedDatabase(fileName, capture);
  // auto_vacuum only takes effect before the first table exists; Codex's DBs are incremental (2) and in WAL mode.
  db.pragma(`auto_vacuum = ${captured.pragmas.autoVacuum}`);
  db.pragma('journal_mode = WAL');
  db.transaction(() => {
    for (const object of captured.objects) db.exec(object.sql);
    const insert = db.prepare(
      'INSERT INTO _sqlx_migrations (version, description, installed_on, success, checksum, execution_time) VALUES (?, ?, ?, ?, ?, ?)',
    );
    for (const m of captured.migrations)
      insert.run(
        m.version,
        m.description,
        sqliteTimestamp(installedAtSec),
        m.success ? 1 : 0,
        Buffer.from(m.checksum, 'hex'),
        m.executionTime,
      );
    for (const [table, rows] of Object.entries(captured.seedRows)) {
      for (const row of rows) {
        const values = seedRow(row, installedAtSec);
        const columns = Object.keys(values);
        db.prepare(`INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`).run(
          ...Object.values(values),
        );
      }
    }
  })();
}
