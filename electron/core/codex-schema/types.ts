// The shape of a captured Codex schema: per SQLite file, its pragmas, schema objects and sqlx migration records.

export interface CapturedObject {
  type: 'table' | 'index' | 'trigger' | 'view';
  name: string;
  tableName: string;
  sql: string;
}

export interface CapturedMigration {
  version: number;
  description: string;
  success: boolean;
  /** The SHA-384 sqlx stored, as upper-case hex. */
  checksum: string;
  executionTime: number;
}

export interface CapturedDatabase {
  pragmas: { autoVacuum: number; userVersion: number; pageSize: number };
  objects: CapturedObject[];
  migrations: CapturedMigration[];
  /** Rows a home Codex has run in always holds (singletons a migration or the first start inserts), by table. */
  seedRows: Record<string, Array<Record<string, string | number | null>>>;
}

export interface CodexSchemaCapture {
  codexVersion: string;
  /** Keyed by file name (`state_5.sqlite`, `memories_1.sqlite`, …). */
  databases: Record<string, CapturedDatabase>;
}

/** One migration a verified release's fresh home carries. */
export interface VerifiedMigration {
  version: number;
  description: string;
  /** The SHA-384 sqlx stored, as upper-case hex. */
  checksum: string;
}

/** A Codex release `npm run compat` verified: its receipt and the migrations of each SQLite file a fresh home of it has. */
export interface VerifiedCodexRelease {
  version: string;
  /** The day the receipt was written (YYYY-MM-DD). */
  verifiedOn: string;
  /** The receipt, relative to the repository: `docs/compat/<version>.md`. */
  receipt: string;
  /** Keyed by file name (`state_5.sqlite`, …), oldest migration first. */
  databases: Record<string, VerifiedMigration[]>;
}
