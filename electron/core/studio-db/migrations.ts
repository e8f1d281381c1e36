// The Studio DB's numbered schema migrations, applied in order, each in one transaction (Signal Desktop's pattern).
import type Database from 'better-sqlite3';
import { maskStoredTexts } from './mask-stored-texts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * Rebuilds a table other tables reference (SQLite cannot change a CHECK in place): foreign keys are switched off
   * around the transaction, as SQLite's own procedure for such changes asks, so dropping the old table cascades
   * nothing, and `PRAGMA foreign_key_check` must find no broken reference before it commits.
   */
  rebuildsReferencedTable?: boolean;
  /** A data step run after `sql`, in the same transaction. */
  run?: (db: Database.Database) => void;
  /**
   * The migration removes text from the DB (masks secrets): once it commits, the file is rewritten (VACUUM) and the WAL
   * checkpointed and truncated, so the removed bytes are gone from every page and from the WAL, not only unreferenced.
   */
  purges?: boolean;
}

/**
 * Append only: never edit a shipped migration, add the next number. Contents are kept in the DB on purpose
 * (base, proposed, before and after), so a proposal can be re-reviewed and any history entry reverted; since
 * migration 7 every secret in them is masked (review/stored-texts.ts, ARCHITECTURE.md "No secret at rest").
 * `hunks_json` stores the hunks the person decided on, so a later change of the diff library cannot change
 * which lines an accepted hunk covers.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'proposals and history',
    sql: `
      CREATE TABLE proposals (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('edit','note','redaction','forget','consolidation','import','revert')),
        created_at INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','applied','rejected','superseded')),
        applied_at INTEGER,
        note TEXT
      );
      CREATE INDEX proposals_by_status ON proposals (status, created_at);

      CREATE TABLE proposal_files (
        proposal_id TEXT NOT NULL REFERENCES proposals (id) ON DELETE CASCADE,
        ord INTEGER NOT NULL,
        version TEXT NOT NULL CHECK (version IN ('v1','v2')),
        root TEXT NOT NULL,
        rel_path TEXT NOT NULL,
        base_sha256 TEXT,
        base_content TEXT,
        proposed_content TEXT,
        hunks_json TEXT NOT NULL,
        added INTEGER NOT NULL DEFAULT 0,
        removed INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','applied','rejected')),
        PRIMARY KEY (proposal_id, ord),
        UNIQUE (proposal_id, root, rel_path),
        CHECK ((base_sha256 IS NULL) = (base_content IS NULL))
      );

      CREATE TABLE proposal_db_changes (
        proposal_id TEXT NOT NULL REFERENCES proposals (id) ON DELETE CASCADE,
        ord INTEGER NOT NULL,
        db TEXT NOT NULL CHECK (db IN ('memories_v1','memories_v2','state')),
        description TEXT NOT NULL,
        sql_kind TEXT NOT NULL,
        params_json TEXT NOT NULL,
        PRIMARY KEY (proposal_id, ord)
      );

      CREATE TABLE hunk_decisions (
        proposal_id TEXT NOT NULL,
        ord INTEGER NOT NULL,
        hunk_id TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('accept','reject')),
        PRIMARY KEY (proposal_id, ord, hunk_id),
        FOREIGN KEY (proposal_id, ord) REFERENCES proposal_files (proposal_id, ord) ON DELETE CASCADE
      );

      CREATE TABLE history (
        id TEXT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('apply','external','revert')),
        proposal_id TEXT REFERENCES proposals (id),
        at INTEGER NOT NULL,
        summary TEXT NOT NULL
      );
      CREATE INDEX history_by_time ON history (at);

      CREATE TABLE history_files (
        history_id TEXT NOT NULL REFERENCES history (id) ON DELETE CASCADE,
        ord INTEGER NOT NULL,
        version TEXT NOT NULL CHECK (version IN ('v1','v2')),
        root TEXT NOT NULL,
        rel_path TEXT NOT NULL,
        before_sha256 TEXT,
        before_content TEXT,
        after_sha256 TEXT,
        after_content TEXT,
        PRIMARY KEY (history_id, ord)
      );
      CREATE INDEX history_files_by_path ON history_files (rel_path, root);
    `,
  },
  {
    version: 2,
    name: 'import provenance',
    // One row per file an import proposal writes: where it came from (tool, path, mtime, hash of the source bytes).
    sql: `
      CREATE TABLE proposal_provenance (
        proposal_id TEXT NOT NULL REFERENCES proposals (id) ON DELETE CASCADE,
        ord INTEGER NOT NULL,
        version TEXT NOT NULL CHECK (version IN ('v1','v2')),
        rel_path TEXT NOT NULL,
        tool TEXT NOT NULL,
        source_path TEXT NOT NULL,
        source_mtime_ms REAL NOT NULL,
        source_sha256 TEXT NOT NULL,
        PRIMARY KEY (proposal_id, ord)
      );
    `,
  },
  {
    version: 3,
    name: 'three-way rebase and import source homes',
    // A rebased file keeps its merge base (the file when proposed) and the proposal's own content, so every later rebase
    // merges from the true common ancestor; conflict hunks are resolved with theirs/ours/both/edit (edit keeps its text).
    // Provenance names the source home (Claude or Cursor home, repository, or state.vscdb) an import read.
    sql: `
      ALTER TABLE proposal_files ADD COLUMN rebased_at INTEGER;
      ALTER TABLE proposal_files ADD COLUMN merge_base_sha256 TEXT;
      ALTER TABLE proposal_files ADD COLUMN merge_base_content TEXT;
      ALTER TABLE proposal_files ADD COLUMN ours_content TEXT;
      CREATE TABLE hunk_decisions_v3 (
        proposal_id TEXT NOT NULL,
        ord INTEGER NOT NULL,
        hunk_id TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('accept','reject','theirs','ours','both','edit')),
        edit_text TEXT,
        PRIMARY KEY (proposal_id, ord, hunk_id),
        CHECK ((decision = 'edit') = (edit_text IS NOT NULL)),
        FOREIGN KEY (proposal_id, ord) REFERENCES proposal_files (proposal_id, ord) ON DELETE CASCADE
      );
      INSERT INTO hunk_decisions_v3 (proposal_id, ord, hunk_id, decision) SELECT proposal_id, ord, hunk_id, decision FROM hunk_decisions;
      DROP TABLE hunk_decisions;
      ALTER TABLE hunk_decisions_v3 RENAME TO hunk_decisions;
      ALTER TABLE proposal_provenance ADD COLUMN source_home TEXT;
    `,
  },
  {
    version: 4,
    name: 'doctor proposals and project files',
    // The memory doctor's fixes are proposals of their own source; a promotion writes a project's AGENTS.md, a file
    // outside every memory root: `target` says which kind of file a proposal or history row is (ARCHITECTURE.md).
    rebuildsReferencedTable: true,
    sql: `
      CREATE TABLE proposals_v4 (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('edit','note','redaction','forget','consolidation','import','revert','doctor')),
        created_at INTEGER NOT NULL,
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','applied','rejected','superseded')),
        applied_at INTEGER,
        note TEXT
      );
      INSERT INTO proposals_v4 (id, title, source, created_at, status, applied_at, note)
        SELECT id, title, source, created_at, status, applied_at, note FROM proposals;
      DROP INDEX proposals_by_status;
      DROP TABLE proposals;
      ALTER TABLE proposals_v4 RENAME TO proposals;
      CREATE INDEX proposals_by_status ON proposals (status, created_at);
      ALTER TABLE proposal_files ADD COLUMN target TEXT NOT NULL DEFAULT 'memory' CHECK (target IN ('memory','project'));
      ALTER TABLE history_files ADD COLUMN target TEXT NOT NULL DEFAULT 'memory' CHECK (target IN ('memory','project'));
    `,
  },
  {
    version: 5,
    name: 'proposal files by path',
    // An import plan matches each earlier import's provenance row to its proposal file by path: without this, each of
    // 10,000 rows scanned every file row of its proposal (texts included), and planning 200 imported projects took 2 min.
    sql: `
      CREATE INDEX proposal_files_by_path ON proposal_files (proposal_id, version, rel_path);
    `,
  },
  {
    version: 6,
    name: 'proposal file status in the path index',
    // The same match also asks whether each file was applied: a status stored after the file's texts made SQLite read
    // through their overflow pages for each of 10,000 rows (60 ms of re-planning 200 imported projects). The index
    // carries it now.
    sql: `
      DROP INDEX proposal_files_by_path;
      CREATE INDEX proposal_files_by_path ON proposal_files (proposal_id, version, rel_path, status);
    `,
  },
  {
    version: 7,
    name: 'no secret at rest',
    // Stored texts keep every secret masked (`abcd****`, line breaks kept); `masked_lines` says which lines of each text
    // hold one (Apply never writes such a line from the proposal's side), `secrets_removed` how many secrets a history
    // entry's change removed (a revert cannot restore them). Older rows are masked in place, then the file is rewritten.
    sql: `
      ALTER TABLE proposal_files ADD COLUMN masked_lines TEXT;
      ALTER TABLE history_files ADD COLUMN masked_lines TEXT;
      ALTER TABLE history_files ADD COLUMN secrets_removed INTEGER NOT NULL DEFAULT 0;
    `,
    run: maskStoredTexts,
    purges: true,
  },
];

/** The newest schema version this build knows. */
export const LATEST_SCHEMA_VERSION = migrations.reduce((max, m) => Math.max(max, m.version), 0);
