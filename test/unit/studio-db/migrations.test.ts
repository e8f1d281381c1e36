// The Studio DB opens, migrates once, shares one connection, and refuses newer or damaged files with clear errors.
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StudioFailure } from '../../../electron/core/platform/errors';
import { LATEST_SCHEMA_VERSION, migrate, migrations, openStudioDb, STUDIO_DB_FILE } from '../../../electron/core/studio-db';
import { makeTempDir } from '../helpers';

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
});
afterEach(() => cleanup());

const failureOf = (fn: () => unknown): StudioFailure => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StudioFailure);
    return error as StudioFailure;
  }
  throw new Error('expected a StudioFailure');
};

describe('openStudioDb', () => {
  it('creates the DB fresh with WAL, FULL sync, foreign keys and every migration recorded', () => {
    const db = openStudioDb(join(dir, 'nested', 'data'));
    expect(db.raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.raw.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.raw.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.raw.pragma('busy_timeout', { simple: true })).toBe(5000);
    const versions = db.stmt<[], { version: number }>('SELECT version FROM schema_migrations ORDER BY version').all();
    expect(versions.map((v) => v.version)).toEqual(migrations.map((m) => m.version));
    expect(versions.at(-1)?.version).toBe(LATEST_SCHEMA_VERSION);
    const tables = db
      .stmt<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((t) => t.name);
    expect(tables).toEqual(
      expect.arrayContaining(['proposals', 'proposal_files', 'proposal_db_changes', 'hunk_decisions', 'history', 'history_files']),
    );
    db.close();
  });

  it('re-opens without re-applying migrations and keeps the data', () => {
    const first = openStudioDb(dir);
    first.stmt("INSERT INTO proposals (id, title, source, created_at) VALUES ('p-1', 't', 'edit', 1)").run();
    first.close();
    const again = openStudioDb(dir);
    expect(again.stmt<[], { n: number }>('SELECT COUNT(*) AS n FROM schema_migrations').get()?.n).toBe(migrations.length);
    expect(again.stmt<[], { title: string }>("SELECT title FROM proposals WHERE id = 'p-1'").get()?.title).toBe('t');
    again.close();
  });

  it('shares one writer connection per process and closes it with the last handle', () => {
    const a = openStudioDb(dir);
    const b = openStudioDb(dir);
    expect(a.raw).toBe(b.raw);
    a.close();
    expect(b.raw.open).toBe(true);
    b.close();
    expect(b.raw.open).toBe(false);
  });

  it('enforces the CHECK constraints of migration 1', () => {
    const db = openStudioDb(dir);
    expect(() => db.stmt("INSERT INTO proposals (id, title, source, created_at) VALUES ('x', 't', 'magic', 1)").run()).toThrow(/CHECK/);
    db.close();
  });

  it('refuses a DB written by a newer version, without changing it', () => {
    openStudioDb(dir).close();
    const raw = new Database(join(dir, STUDIO_DB_FILE));
    raw.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'future', 0)").run();
    raw.close();
    const failure = failureOf(() => openStudioDb(dir));
    expect(failure.kind).toBe('Unsupported');
    expect(failure.message).toContain(`newer Memory Studio (schema version 99; this one knows up to ${LATEST_SCHEMA_VERSION})`);
    expect(failure.hint).toMatch(/Update Memory Studio/);
  });

  it('turns a corrupt file into a clear error saying what to do', () => {
    writeFileSync(join(dir, STUDIO_DB_FILE), Buffer.alloc(8192, 0x5a));
    const failure = failureOf(() => openStudioDb(dir));
    expect(failure.message).toMatch(/studio\.sqlite is damaged/);
    expect(failure.hint).toMatch(/move studio\.sqlite .* aside/);
  });

  it('reports a DB locked by another connection as Busy', () => {
    openStudioDb(dir).close();
    const other = new Database(join(dir, STUDIO_DB_FILE));
    other.exec('BEGIN EXCLUSIVE');
    const db = openStudioDb(dir);
    db.raw.pragma('busy_timeout = 50');
    const failure = failureOf(() =>
      db.transaction(() => db.stmt("INSERT INTO proposals (id, title, source, created_at) VALUES ('p', 't', 'edit', 1)").run()),
    );
    expect(failure.kind).toBe('Busy');
    expect(failure.hint).toMatch(/try again/);
    other.exec('ROLLBACK');
    other.close();
    db.close();
  });

  it('applies migrations in order, each once, in its own transaction (a failing one leaves the earlier ones)', () => {
    const raw = new Database(':memory:');
    const list = [
      { version: 1, name: 'a', sql: 'CREATE TABLE a (x)' },
      { version: 2, name: 'b', sql: 'CREATE TABLE b (x); CREATE TABLE broken (' },
    ];
    expect(() => migrate(raw, ':memory:', list)).toThrow();
    expect(raw.prepare('SELECT version FROM schema_migrations').all()).toEqual([{ version: 1 }]);
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'b'").all()).toEqual([]);
    migrate(raw, ':memory:', [list[0] as (typeof list)[0], { version: 2, name: 'b', sql: 'CREATE TABLE b (x)' }]);
    expect(raw.prepare('SELECT version FROM schema_migrations ORDER BY version').all()).toEqual([{ version: 1 }, { version: 2 }]);
    raw.close();
  });

  it('migration 3 keeps the decisions of a version-2 DB and allows conflict resolutions only with their text', () => {
    const raw = new Database(':memory:');
    raw.pragma('foreign_keys = ON');
    migrate(
      raw,
      ':memory:',
      migrations.filter((m) => m.version <= 2),
    );
    raw.prepare("INSERT INTO proposals (id, title, source, created_at) VALUES ('p-1', 't', 'edit', 0)").run();
    raw
      .prepare(
        "INSERT INTO proposal_files (proposal_id, ord, version, root, rel_path, hunks_json) VALUES ('p-1', 0, 'v1', '/r', 'a.md', '[]')",
      )
      .run();
    raw.prepare("INSERT INTO hunk_decisions (proposal_id, ord, hunk_id, decision) VALUES ('p-1', 0, 'h1', 'accept')").run();
    migrate(raw, ':memory:', migrations);
    expect(raw.prepare('SELECT hunk_id, decision, edit_text FROM hunk_decisions').all()).toEqual([
      { hunk_id: 'h1', decision: 'accept', edit_text: null },
    ]);
    expect(raw.prepare('SELECT rebased_at, merge_base_content, ours_content FROM proposal_files').get()).toEqual({
      rebased_at: null,
      merge_base_content: null,
      ours_content: null,
    });
    raw
      .prepare("INSERT INTO hunk_decisions (proposal_id, ord, hunk_id, decision, edit_text) VALUES ('p-1', 0, 'h2', 'edit', 'by hand')")
      .run();
    expect(() =>
      raw.prepare("INSERT INTO hunk_decisions (proposal_id, ord, hunk_id, decision) VALUES ('p-1', 0, 'h3', 'edit')").run(),
    ).toThrow(/CHECK/);
    expect(() =>
      raw.prepare("INSERT INTO hunk_decisions (proposal_id, ord, hunk_id, decision) VALUES ('p-1', 0, 'h4', 'maybe')").run(),
    ).toThrow(/CHECK/);
    raw.prepare("DELETE FROM history WHERE id = 'e-1'").run();
    expect(raw.prepare('SELECT COUNT(*) AS n FROM history_files').get()).toEqual({ n: 0 });
    raw.prepare("DELETE FROM proposals WHERE id = 'p-1'").run();
    expect(raw.prepare('SELECT COUNT(*) AS n FROM hunk_decisions').get()).toEqual({ n: 0 });
    raw.close();
  });
  it('migration 4 rebuilds proposals for the doctor source without losing a row, a file, a decision or a history entry', () => {
    const raw = new Database(':memory:');
    raw.pragma('foreign_keys = ON');
    migrate(
      raw,
      ':memory:',
      migrations.filter((m) => m.version <= 3),
    );
    raw
      .prepare(
        "INSERT INTO proposals (id, title, source, created_at, status, applied_at, note) VALUES ('p-1', 't', 'import', 5, 'applied', 6, 'n')",
      )
      .run();
    raw
      .prepare(
        "INSERT INTO proposal_files (proposal_id, ord, version, root, rel_path, hunks_json) VALUES ('p-1', 0, 'v1', '/r', 'a.md', '[]')",
      )
      .run();
    raw.prepare("INSERT INTO hunk_decisions (proposal_id, ord, hunk_id, decision) VALUES ('p-1', 0, 'h1', 'accept')").run();
    raw
      .prepare(
        "INSERT INTO proposal_db_changes (proposal_id, ord, db, description, sql_kind, params_json) VALUES ('p-1', 0, 'state', 'd', 'k', '{}')",
      )
      .run();
    raw
      .prepare(
        "INSERT INTO proposal_provenance (proposal_id, ord, version, rel_path, tool, source_path, source_mtime_ms, source_sha256) VALUES ('p-1', 0, 'v1', 'a.md', 'claude', '/s', 1, 'x')",
      )
      .run();
    raw.prepare("INSERT INTO history (id, kind, proposal_id, at, summary) VALUES ('e-1', 'apply', 'p-1', 6, 's')").run();
    raw.prepare("INSERT INTO history_files (history_id, ord, version, root, rel_path) VALUES ('e-1', 0, 'v1', '/r', 'a.md')").run();
    migrate(raw, ':memory:', migrations);
    expect(raw.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(raw.prepare('SELECT id, title, source, created_at, status, applied_at, note FROM proposals').all()).toEqual([
      { id: 'p-1', title: 't', source: 'import', created_at: 5, status: 'applied', applied_at: 6, note: 'n' },
    ]);
    for (const table of ['proposal_files', 'hunk_decisions', 'proposal_db_changes', 'proposal_provenance', 'history', 'history_files']) {
      expect(raw.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get(), table).toEqual({ n: 1 });
    }
    expect(raw.prepare('SELECT target FROM proposal_files').get()).toEqual({ target: 'memory' });
    expect(raw.prepare('SELECT target FROM history_files').get()).toEqual({ target: 'memory' });
    raw.prepare("INSERT INTO proposals (id, title, source, created_at) VALUES ('p-2', 't', 'doctor', 7)").run();
    raw
      .prepare(
        "INSERT INTO proposal_files (proposal_id, ord, version, root, rel_path, hunks_json, target) VALUES ('p-2', 0, 'v1', '/project', 'AGENTS.md', '[]', 'project')",
      )
      .run();
    expect(() =>
      raw
        .prepare(
          "INSERT INTO proposal_files (proposal_id, ord, version, root, rel_path, hunks_json, target) VALUES ('p-2', 1, 'v1', '/x', 'b.md', '[]', 'elsewhere')",
        )
        .run(),
    ).toThrow(/CHECK/);
    // The rebuilt table is still the one the files reference: deleting a proposal still takes its files along.
    raw.prepare("DELETE FROM proposals WHERE id = 'p-2'").run();
    expect(raw.prepare("SELECT COUNT(*) AS n FROM proposal_files WHERE proposal_id = 'p-2'").get()).toEqual({ n: 0 });
    expect(raw.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    raw.close();
  });

  it('migration 9 rebuilds proposals for the agent source, keeping every row and what references it', () => {
    const raw = new Database(':memory:');
    raw.pragma('foreign_keys = ON');
    migrate(
      raw,
      ':memory:',
      migrations.filter((m) => m.version <= 6),
    );
    raw
      .prepare(
        "INSERT INTO proposals (id, title, source, created_at, status, applied_at, note) VALUES ('p-1', 't', 'doctor', 5, 'applied', 6, 'n')",
      )
      .run();
    raw
      .prepare(
        "INSERT INTO proposal_files (proposal_id, ord, version, root, rel_path, hunks_json) VALUES ('p-1', 0, 'v1', '/r', 'a.md', '[]')",
      )
      .run();
    raw.prepare("INSERT INTO hunk_decisions (proposal_id, ord, hunk_id, decision) VALUES ('p-1', 0, 'h1', 'accept')").run();
    raw.prepare("INSERT INTO history (id, kind, proposal_id, at, summary) VALUES ('e-1', 'apply', 'p-1', 6, 's')").run();
    migrate(raw, ':memory:', migrations);
    expect(raw.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(raw.prepare('SELECT * FROM proposals').all()).toEqual([
      {
        id: 'p-1',
        title: 't',
        source: 'doctor',
        created_at: 5,
        status: 'applied',
        applied_at: 6,
        note: 'n',
        agent_name: null,
        agent_version: null,
        agent_seen_at: null,
      },
    ]);
    for (const table of ['proposal_files', 'hunk_decisions', 'history']) {
      expect(raw.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get(), table).toEqual({ n: 1 });
    }
    raw
      .prepare(
        "INSERT INTO proposals (id, title, source, created_at, agent_name, agent_version) VALUES ('p-2', 't', 'agent', 7, 'codex', '0.171.0')",
      )
      .run();
    // An agent proposal names its agent; no other proposal does.
    expect(() => raw.prepare("INSERT INTO proposals (id, title, source, created_at) VALUES ('p-3', 't', 'agent', 7)").run()).toThrow(
      /CHECK/,
    );
    expect(() =>
      raw.prepare("INSERT INTO proposals (id, title, source, created_at, agent_name) VALUES ('p-4', 't', 'edit', 7, 'codex')").run(),
    ).toThrow(/CHECK/);
    // The rebuilt table is still the one others reference: its files and decisions go with it.
    raw.prepare("DELETE FROM history WHERE id = 'e-1'").run();
    raw.prepare("DELETE FROM proposals WHERE id = 'p-1'").run();
    expect(raw.prepare('SELECT COUNT(*) AS n FROM proposal_files').get()).toEqual({ n: 0 });
    expect(raw.prepare('SELECT COUNT(*) AS n FROM hunk_decisions').get()).toEqual({ n: 0 });
    expect(raw.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    raw.close();
  });

  it('migration 10 rebuilds proposals, proposal files and history files for agent configs, keeping every row and column', () => {
    const raw = new Database(':memory:');
    raw.pragma('foreign_keys = ON');
    migrate(
      raw,
      ':memory:',
      migrations.filter((m) => m.version <= 9),
    );
    raw
      .prepare(
        "INSERT INTO proposals (id, title, source, created_at, agent_name, agent_version, agent_seen_at) VALUES ('p-1', 't', 'agent', 5, 'codex-mcp-client', '0.171.0', 9)",
      )
      .run();
    raw
      .prepare(
        `INSERT INTO proposal_files (proposal_id, ord, version, root, rel_path, base_sha256, base_content, proposed_content, hunks_json,
           added, removed, status, rebased_at, merge_base_sha256, merge_base_content, ours_content, target)
         VALUES ('p-1', 0, 'v2', '/p', 'AGENTS.md', 'b', 'base', 'new', '[]', 1, 2, 'applied', 3, 'm', 'merge', 'ours', 'project')`,
      )
      .run();
    raw.prepare("INSERT INTO hunk_decisions (proposal_id, ord, hunk_id, decision, edit_text) VALUES ('p-1', 0, 'h', 'edit', 'x')").run();
    raw.prepare("INSERT INTO history (id, kind, proposal_id, at, summary) VALUES ('e-1', 'apply', 'p-1', 6, 's')").run();
    raw
      .prepare(
        "INSERT INTO history_files (history_id, ord, version, root, rel_path, before_sha256, before_content, after_sha256, after_content, target) VALUES ('e-1', 0, 'v2', '/p', 'AGENTS.md', 'a', 'A', 'b', 'B', 'project')",
      )
      .run();
    const before = ['proposals', 'proposal_files', 'hunk_decisions', 'history_files'].map((t) => raw.prepare(`SELECT * FROM ${t}`).all());
    migrate(raw, ':memory:', migrations);
    expect(['proposals', 'proposal_files', 'hunk_decisions', 'history_files'].map((t) => raw.prepare(`SELECT * FROM ${t}`).all())).toEqual(
      before,
    );
    raw.prepare("INSERT INTO proposals (id, title, source, created_at) VALUES ('p-2', 't', 'connect', 7)").run();
    raw
      .prepare(
        "INSERT INTO proposal_files (proposal_id, ord, version, root, rel_path, hunks_json, target) VALUES ('p-2', 0, 'v2', '/home/d', '.claude.json', '[]', 'agent-config')",
      )
      .run();
    raw
      .prepare(
        "INSERT INTO history_files (history_id, ord, version, root, rel_path, target) VALUES ('e-1', 1, 'v2', '/home/d/.cursor', 'mcp.json', 'agent-config')",
      )
      .run();
    expect(() =>
      raw
        .prepare(
          "INSERT INTO proposal_files (proposal_id, ord, version, root, rel_path, hunks_json, target) VALUES ('p-2', 1, 'v2', '/x', 'y', '[]', 'elsewhere')",
        )
        .run(),
    ).toThrow(/CHECK/);
    raw.prepare("DELETE FROM history WHERE id = 'e-1'").run();
    expect(raw.prepare('SELECT COUNT(*) AS n FROM history_files').get()).toEqual({ n: 0 });
    raw.prepare("DELETE FROM proposals WHERE id = 'p-1'").run();
    expect(raw.prepare('SELECT COUNT(*) AS n FROM hunk_decisions').get()).toEqual({ n: 0 });
    expect(raw.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    raw.close();
  });
});
