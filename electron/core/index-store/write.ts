// Writes into the index: one file's analysis (row, blocks, chunks), removals, sessions and token counts.
import type Database from 'better-sqlite3';
import type { FileKind, MemoryVersion } from '../../../shared/domain';
import type { SessionScan } from '../sessions/session-scan';
import type { FileAnalysis } from './analyze';
import { stmt } from './statements';
import type { GitScan, Stamp } from './walk';

/** Counts every change to files, sessions or roots: answers derived from the index are kept per generation. */
export function bumpGeneration(db: Database.Database): void {
  stmt(
    db,
    "INSERT INTO meta (key, value) VALUES ('generation', '1') ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
  ).run();
}

export function generationOf(db: Database.Database): number {
  return Number(stmt<{ value: string }>(db, "SELECT value FROM meta WHERE key = 'generation'").get()?.value ?? 0);
}

/** Records the root's path; a root that moved (another path for the same version) starts empty. */
export function ensureRoot(db: Database.Database, version: MemoryVersion, path: string): GitScan | null {
  const row = stmt<{ path: string; git_dirs: string | null; git_symlinks: string | null }>(
    db,
    'SELECT path, git_dirs, git_symlinks FROM roots WHERE version = ?',
  ).get(version);
  if (row && row.path === path)
    return row.git_dirs === null ? null : { dirs: JSON.parse(row.git_dirs), symlinks: JSON.parse(row.git_symlinks ?? '[]') };
  db.transaction(() => {
    for (const path of stmt<{ path: string }>(db, 'SELECT path FROM files WHERE version = ?').all(version))
      removeFile(db, version, path.path);
    stmt(
      db,
      'INSERT INTO roots (version, path) VALUES (?, ?) ON CONFLICT (version) DO UPDATE SET path = excluded.path, git_dirs = NULL, git_symlinks = NULL',
    ).run(version, path);
    bumpGeneration(db);
  }).immediate();
  return null;
}

export function saveGitScan(db: Database.Database, version: MemoryVersion, scan: GitScan): void {
  stmt(db, 'UPDATE roots SET git_dirs = ?, git_symlinks = ? WHERE version = ?').run(
    JSON.stringify(scan.dirs),
    JSON.stringify(scan.symlinks),
    version,
  );
}

function dropContent(db: Database.Database, version: MemoryVersion, path: string): void {
  for (const { id } of stmt<{ id: number }>(db, 'SELECT id FROM chunks WHERE version = ? AND path = ?').all(version, path))
    stmt(db, 'DELETE FROM chunks_fts WHERE rowid = ?').run(id);
  stmt(db, 'DELETE FROM chunks WHERE version = ? AND path = ?').run(version, path);
  for (const { id } of stmt<{ id: number }>(db, 'SELECT id FROM blocks WHERE version = ? AND path = ?').all(version, path))
    stmt(db, 'DELETE FROM blocks_fts WHERE rowid = ?').run(id);
  stmt(db, 'DELETE FROM blocks WHERE version = ? AND path = ?').run(version, path);
}

export function removeFile(db: Database.Database, version: MemoryVersion, path: string): void {
  dropContent(db, version, path);
  stmt(db, 'DELETE FROM files WHERE version = ? AND path = ?').run(version, path);
}

const UPSERT_FILE = `INSERT INTO files (version, path, kind, size, mtime_ms, ino, sha256, status, error, est_tokens, facts, diagnostics)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (version, path) DO UPDATE SET kind = excluded.kind, size = excluded.size, mtime_ms = excluded.mtime_ms, ino = excluded.ino,
    sha256 = excluded.sha256, status = excluded.status, error = excluded.error, est_tokens = excluded.est_tokens, facts = excluded.facts, diagnostics = excluded.diagnostics`;

/** A file the index lists but does not read (a symlink, never followed; something too big to hold). */
export function writeSkipped(
  db: Database.Database,
  version: MemoryVersion,
  path: string,
  kind: FileKind,
  stamp: Stamp,
  error: string | null,
): void {
  dropContent(db, version, path);
  stmt(db, UPSERT_FILE).run(
    version,
    path,
    kind,
    stamp.size,
    stamp.mtimeMs,
    stamp.ino,
    null,
    error ? 'unreadable' : 'skipped',
    error,
    Math.ceil(stamp.size / 4),
    '{}',
    null,
  );
}

export function writeAnalysis(
  db: Database.Database,
  version: MemoryVersion,
  path: string,
  kind: FileKind,
  stamp: Stamp,
  analysis: FileAnalysis,
): void {
  dropContent(db, version, path);
  const diagnostics = analysis.diagnostics === null ? null : JSON.stringify(analysis.diagnostics);
  stmt(db, UPSERT_FILE).run(
    version,
    path,
    kind,
    stamp.size,
    stamp.mtimeMs,
    stamp.ino,
    analysis.sha256,
    analysis.status,
    analysis.error,
    analysis.estTokens,
    JSON.stringify(analysis.facts),
    diagnostics,
  );
  for (const c of analysis.chunks) {
    const id = stmt(db, 'INSERT INTO chunks (version, path, kind, line, end_line, project) VALUES (?, ?, ?, ?, ?, ?)').run(
      version,
      path,
      kind,
      c.line,
      c.endLine,
      c.project,
    ).lastInsertRowid;
    stmt(db, 'INSERT INTO chunks_fts (rowid, body, meta, version, path, kind, line, project) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
      id,
      c.body,
      c.meta,
      version,
      path,
      kind,
      c.line,
      c.project,
    );
  }
  for (const b of analysis.blocks) {
    const id = stmt(db, 'INSERT INTO blocks (version, path, kind, line, end_line, title, project) VALUES (?, ?, ?, ?, ?, ?, ?)').run(
      version,
      path,
      b.kind,
      b.line,
      b.endLine,
      b.title,
      b.project,
    ).lastInsertRowid;
    stmt(db, 'INSERT INTO blocks_fts (rowid, title, detail) VALUES (?, ?, ?)').run(id, b.title, b.detail);
  }
  for (const [sha, tokens] of analysis.tokenCounts) saveTokenCount(db, sha, tokens);
}

export function saveTokenCount(db: Database.Database, sha: string, tokens: number): void {
  stmt(db, 'INSERT OR REPLACE INTO token_counts (sha256, tokens) VALUES (?, ?)').run(sha, tokens);
}

export function writeSession(db: Database.Database, scan: SessionScan): void {
  stmt(db, 'INSERT OR REPLACE INTO sessions (path, archived, size, mtime_ms, scan) VALUES (?, ?, ?, ?, ?)').run(
    scan.path,
    scan.archived ? 1 : 0,
    scan.size,
    scan.mtimeMs,
    JSON.stringify(scan),
  );
}

export function removeSession(db: Database.Database, path: string): void {
  stmt(db, 'DELETE FROM sessions WHERE path = ?').run(path);
}

export function saveCodexCache(db: Database.Database, key: string, signature: string, value: unknown): void {
  stmt(db, 'INSERT OR REPLACE INTO codex_cache (key, signature, value) VALUES (?, ?, ?)').run(key, signature, JSON.stringify(value));
}
