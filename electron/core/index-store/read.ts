// Reads what the index keeps, in the shapes the lint, the rollout table, provenance and the budget already use.
import { appendAll } from '../platform/append';
import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { FileList, MemoryVersion } from '../../../shared/domain';
import type { LintDiagnostic, LintFileReport, LintReport } from '../../../shared/lint';
import { countO200kTokens } from '../budget/o200k';
import { FILES } from '../codex/constants';
import type { Ref } from '../inspect/reference-lint';
import type { SummaryHead } from '../inspect/summary-heads';
import {
  addListingDiagnostics,
  checkMemoryMd,
  sortedReport,
  summaryDiagnostics,
  symlinkDiagnostic,
  unreadableDiagnostic,
} from '../lint/lint-root';
import type { SessionListing } from '../sessions/session-files';
import type { ScanAllResult, SessionScan } from '../sessions/session-scan';
import type { FileFacts } from './analyze';
import { stmt } from './statements';
import { saveTokenCount } from './write';

interface FileRow {
  path: string;
  kind: string;
  status: string;
  error: string | null;
  diagnostics: string | null;
}

/** The per-file and root-level lint of a root, from the index, exactly as `lintRoot` reports it from the files. */
export async function lintFromIndex(
  db: Database.Database,
  version: MemoryVersion,
  root: string,
  list: FileList,
  gitSymlinks: readonly string[],
): Promise<LintReport> {
  const byPath = new Map<string, LintFileReport>();
  const add = (path: string, kind: string | undefined, diagnostics: LintDiagnostic[]) => {
    if (diagnostics.length === 0) return;
    const entry = byPath.get(path) ?? ({ path, ...(kind ? { kind } : {}), diagnostics: [] } as LintFileReport);
    appendAll(entry.diagnostics, diagnostics);
    byPath.set(path, entry);
  };
  for (const file of list.files) if (file.symlink) add(file.path, file.kind, [symlinkDiagnostic(file.path)]);
  addListingDiagnostics(list, add);
  for (const path of gitSymlinks) add(path, undefined, [symlinkDiagnostic(path)]);
  const listed = new Set(list.files.filter((f) => !f.symlink && f.path.endsWith('.md')).map((f) => f.path));
  let summary: FileRow | undefined;
  const rows = stmt<FileRow>(
    db,
    "SELECT path, kind, status, error, diagnostics FROM files WHERE version = ? AND path LIKE '%.md' AND (status = 'unreadable' OR diagnostics <> '[]' OR path = ?)",
  ).all(version, FILES.summary);
  for (const row of rows) {
    if (!listed.has(row.path)) continue;
    if (row.path === FILES.summary) summary = row;
    if (row.status === 'unreadable') add(row.path, row.kind, [unreadableDiagnostic(row.error ?? `${row.path} cannot be read.`)]);
    else if (row.diagnostics) add(row.path, row.kind, JSON.parse(row.diagnostics) as LintDiagnostic[]);
  }
  // The summary's own findings include Codex's root-level checks; a missing or unreadable one gets them here.
  if (!summary || summary.status !== 'ok')
    add(
      FILES.summary,
      'summary',
      summaryDiagnostics(version, null, summary?.status === 'unreadable' ? (summary.error ?? 'unreadable') : null, list.files.length === 0),
    );
  if (version === 'v1' && list.files.length > 0) add(FILES.memory, 'memory', await checkMemoryMd(root));
  return sortedReport(version, byPath.values(), listed.size);
}

/** Facts of every file of `kind`, by path. */
export function factsByPath(db: Database.Database, version: MemoryVersion, kind: string): Map<string, FileFacts> {
  const out = new Map<string, FileFacts>();
  const rows = stmt(db, 'SELECT path, facts FROM files WHERE version = ? AND kind = ?').raw(true).all(version, kind) as Array<
    [string, string | null]
  >;
  for (const [path, facts] of rows) out.set(path, facts ? (JSON.parse(facts) as FileFacts) : {});
  return out;
}

/** The rollout summaries' heads (header, title) in the listing's order, as `readSummaryHeads` returns them. */
export function headsFromIndex(db: Database.Database, list: FileList): SummaryHead[] {
  const facts = factsByPath(db, list.version, 'rollout-summary');
  return list.files
    .filter((f) => f.kind === 'rollout-summary')
    .map((file) => {
      const f = file.symlink ? undefined : facts.get(file.path);
      return { file, header: f?.header ?? null, title: f?.title ?? null };
    });
}

export function refsFromIndex(db: Database.Database, version: MemoryVersion, path: string): Ref[] {
  const row = stmt<{ facts: string | null }>(db, 'SELECT facts FROM files WHERE version = ? AND path = ?').get(version, path);
  return row?.facts ? ((JSON.parse(row.facts) as FileFacts).refs ?? []) : [];
}

/** Every session's scan, in the listing's order; a listed file the index could not read shows as unreadable. */
export function sessionScansFromIndex(db: Database.Database, listing: SessionListing): ScanAllResult {
  const stored = new Map<string, SessionScan>();
  for (const [path, scan] of stmt(db, 'SELECT path, scan FROM sessions').raw(true).all() as Array<[string, string]>)
    stored.set(path, JSON.parse(scan) as SessionScan);
  const scans = listing.files.map(
    (file): SessionScan =>
      stored.get(file.path) ?? {
        path: file.path,
        archived: file.archived,
        size: 0,
        mtimeMs: 0,
        threadId: file.threadId,
        cwd: null,
        startedAt: null,
        versionHint: null,
        citations: [],
        error: 'the file could not be read',
      },
  );
  return { scans, skipped: listing.skipped, cacheHits: stored.size };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** An o200k counter backed by the index: a text counted once is never counted again. */
export function cachedTokenCounter(db: Database.Database): (text: string) => number {
  return (text) => {
    if (text.length === 0) return 0;
    const sha = sha256(text);
    const hit = stmt<{ tokens: number }>(db, 'SELECT tokens FROM token_counts WHERE sha256 = ?').get(sha);
    if (hit) return hit.tokens;
    const tokens = countO200kTokens(text);
    try {
      saveTokenCount(db, sha, tokens);
    } catch {
      // A full disk or a busy index only loses the memo, never the count.
    }
    return tokens;
  };
}

/** Only the cache: the count when known, else undefined (the app then counts on a worker). */
export function knownTokenCount(db: Database.Database, text: string): number | undefined {
  if (text.length === 0) return 0;
  return stmt<{ tokens: number }>(db, 'SELECT tokens FROM token_counts WHERE sha256 = ?').get(sha256(text))?.tokens;
}

export function codexCache<T>(db: Database.Database, key: string, signature: string): T | undefined {
  const row = stmt<{ signature: string; value: string }>(db, 'SELECT signature, value FROM codex_cache WHERE key = ?').get(key);
  return row && row.signature === signature ? (JSON.parse(row.value) as T) : undefined;
}

/** A file's row: the SHA-256 of its bytes when it was read, and whether it was. */
export function fileHash(
  db: Database.Database,
  version: MemoryVersion,
  path: string,
): { sha256: string | null; status: string } | undefined {
  return stmt<{ sha256: string | null; status: string }>(db, 'SELECT sha256, status FROM files WHERE version = ? AND path = ?').get(
    version,
    path,
  );
}

/** One rollout summary's facts (its header and title), as `factsByPath` gives them; undefined when it has no row. */
export function factsOf(db: Database.Database, version: MemoryVersion, path: string): FileFacts | undefined {
  const row = stmt<{ facts: string | null }>(db, "SELECT facts FROM files WHERE version = ? AND path = ? AND kind = 'rollout-summary'").get(
    version,
    path,
  );
  return row ? ((row.facts ? JSON.parse(row.facts) : {}) as FileFacts) : undefined;
}
