// The index's tables: per file its stat, hash and analysis; full-text chunks and blocks (FTS5); sessions; small caches.

/** Bumped whenever a table changes shape; an index of another format is rebuilt, never migrated (it is a cache). */
export const INDEX_SCHEMA_VERSION = 4;

export const INDEX_SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE roots (
  version TEXT PRIMARY KEY,
  path TEXT NOT NULL,
  -- The .git/ folders' mtimes and the symlinks found there: the git walk is redone only when a folder changed.
  git_dirs TEXT,
  git_symlinks TEXT
) WITHOUT ROWID;
CREATE TABLE files (
  version TEXT NOT NULL,
  path TEXT NOT NULL,
  kind TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  ino INTEGER NOT NULL,
  sha256 TEXT,
  -- 'ok' (analysed), 'unreadable' (error says why), 'skipped' (not text the index reads, e.g. a symlink)
  status TEXT NOT NULL,
  error TEXT,
  est_tokens INTEGER,
  facts TEXT,
  diagnostics TEXT,
  PRIMARY KEY (version, path)
) WITHOUT ROWID;
CREATE TABLE chunks (
  id INTEGER PRIMARY KEY,
  version TEXT NOT NULL,
  path TEXT NOT NULL,
  kind TEXT NOT NULL,
  line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  project TEXT
);
CREATE INDEX chunks_by_file ON chunks (version, path);
-- Where a chunk is, unindexed beside its text: a query filters and answers without joining 10,000 matches to chunks.
CREATE VIRTUAL TABLE chunks_fts USING fts5(body, meta, version UNINDEXED, path UNINDEXED, kind UNINDEXED, line UNINDEXED, project UNINDEXED, tokenize = 'unicode61 remove_diacritics 2', prefix = '3');
-- ORDER BY rank: BM25 with file names and titles (meta) weighted up.
INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('rank', 'bm25(1.0, 4.0)');
-- Hybrid search: each chunk's embedding (little-endian float32) by the configured model; empty while it is off.
CREATE TABLE chunk_vectors (
  chunk_id INTEGER PRIMARY KEY,
  model TEXT NOT NULL,
  vector BLOB NOT NULL
);
CREATE TABLE blocks (
  id INTEGER PRIMARY KEY,
  version TEXT NOT NULL,
  path TEXT NOT NULL,
  kind TEXT NOT NULL,
  line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  title TEXT NOT NULL,
  project TEXT
);
CREATE INDEX blocks_by_file ON blocks (version, path);
-- No prefix index: on the heavy home's 45,674 blocks it cost a third of their write and saved the palette under 1 ms a
-- query (a 2- or 3-letter prefix is answered from the term list as fast, 0.5-4.8 ms either way).
CREATE VIRTUAL TABLE blocks_fts USING fts5(title, detail, tokenize = 'unicode61 remove_diacritics 2');
INSERT INTO blocks_fts (blocks_fts, rank) VALUES ('rank', 'bm25(4.0, 1.0)');
CREATE TABLE sessions (
  path TEXT PRIMARY KEY,
  archived INTEGER NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms REAL NOT NULL,
  scan TEXT NOT NULL
) WITHOUT ROWID;
-- o200k counts by the SHA-256 of the exact text counted (the budget's trimmed and injected texts).
CREATE TABLE token_counts (sha256 TEXT PRIMARY KEY, tokens INTEGER NOT NULL) WITHOUT ROWID;
-- Reads of Codex's DBs keyed by the files' size and mtime (the thread catalog, usage counters).
CREATE TABLE codex_cache (key TEXT PRIMARY KEY, signature TEXT NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
`;
