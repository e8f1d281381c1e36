// The inspect answers (lint, rollout table, usage, budget) from a refreshed index: the same shapes as reading the files.
import type Database from 'better-sqlite3';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { BudgetReport } from '../../../shared/budget';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { LintReport } from '../../../shared/lint';
import type { RolloutTable } from '../../../shared/inspect';
import type { UsageReport } from '../../../shared/provenance';
import { budgetForRoot } from '../budget/budget';
import { StudioFailure } from '../platform/errors';
import { MEMORY_DB_FILES, STATE_DB_FILE } from '../codex/constants';
import { referenceFindings, withReferenceFindings } from '../inspect/reference-rules';
import { rolloutTable } from '../inspect/rollout-table';
import type { SummaryHead } from '../inspect/summary-heads';
import { attributeAll } from '../sessions/attribution';
import { usageReport, type DbUsageByVersion } from '../sessions/usage-report';

import type { DbProblem } from '../../../shared/health';
import type { DbUsage } from '../codex-db/outputs';
import { cachedTokenCounter, codexCache, headsFromIndex, lintFromIndex, refsFromIndex, sessionScansFromIndex } from './read';
import type { IndexedHome, IndexedRoot } from './indexed-home';
import { saveCodexCache } from './write';

export type { IndexedHome, IndexedRoot } from './indexed-home';

/** Size and mtime of Codex's DB files and their -wal: unchanged means the counters read from them are unchanged. */
async function dbSignature(home: HomeInfo): Promise<string> {
  const paths = [
    join(home.sqliteHome, STATE_DB_FILE),
    ...(['v1', 'v2'] as const).map((v) => home.roots.find((r) => r.version === v)?.dbPath ?? join(home.sqliteHome, MEMORY_DB_FILES[v])),
  ];
  const parts = await Promise.all(
    paths
      .flatMap((p) => [p, `${p}-wal`])
      .map(async (p) => {
        const s = await stat(p).catch(() => null);
        return s ? `${p}:${s.size}:${s.mtimeMs}` : `${p}:-`;
      }),
  );
  return parts.join('|');
}

type StoredUsage = { usage: Array<[MemoryVersion, Array<[string, DbUsage]>]>; problems: DbProblem[] };

/** Codex's usage counters, read again only when its DB files changed. */
async function dbUsage(db: Database.Database, home: HomeInfo): Promise<{ usage: DbUsageByVersion; problems: DbProblem[] }> {
  const signature = await dbSignature(home);
  const cached = codexCache<StoredUsage>(db, 'db-usage', signature);
  if (cached) return { usage: new Map(cached.usage.map(([v, rows]) => [v, new Map(rows)])), problems: cached.problems };
  // Codex's DB readers load only on a miss: a warm run never opens Codex's files for this.
  const read = await (await import('../sessions/usage-aggregate.js')).readAllDbUsage(home);
  const stored: StoredUsage = { usage: [...read.usage].map(([v, rows]) => [v, [...rows]]), problems: read.problems };
  try {
    // Problems (a locked DB) are not worth remembering: the next read may succeed.
    if (read.problems.length === 0) saveCodexCache(db, 'db-usage', signature, stored);
  } catch {
    // A busy or full index only loses the memo.
  }
  return read;
}

/** Citations of every session and Codex's counters, folded per file and thread (what `collectUsage` answers). */
export function usageFromIndex(indexed: IndexedHome): Promise<UsageReport> {
  if (!indexed.sessionsScanned) throw new Error('usage needs an index refreshed with the sessions');
  indexed.usage ??= (async () => {
    const started = performance.now();
    const scanned = sessionScansFromIndex(indexed.db, indexed.sessions);
    const listed = new Map([...indexed.roots].map(([v, r]) => [v, new Set(r.list.files.filter((f) => !f.symlink).map((f) => f.path))]));
    const blocks = await attributeAll(indexed.home, scanned.scans, (version, path) => listed.get(version)?.has(path) ?? false);
    return usageReport(scanned, blocks, await dbUsage(indexed.db, indexed.home), undefined, started);
  })();
  return indexed.usage;
}

export function rootOf(indexed: IndexedHome, version: MemoryVersion): IndexedRoot {
  const root = indexed.roots.get(version);
  if (root) return root;
  throw (
    indexed.errors.get(version) ??
    new StudioFailure('NotFound', `${indexed.home.codexHome} has no ${version} memory folder.`, {
      hint: 'Pick another Codex home, or open the demo.',
    })
  );
}

/**
 * What a derived answer depends on besides the files: the index's generation, Codex's DB files and the config in force.
 * Equal keys mean equal answers (a lint answer also carries the moment it goes stale).
 */
async function answerKey(indexed: IndexedHome): Promise<string> {
  indexed.answerKey ??= dbSignature(indexed.home).then(
    (db) => `${indexed.generation}|${JSON.stringify(indexed.home.config.memories)}|${db}`,
  );
  return indexed.answerKey;
}

function remember(indexed: IndexedHome, key: string, signature: string, value: unknown): void {
  try {
    saveCodexCache(indexed.db, key, signature, value);
  } catch {
    // A busy or full index only loses the memo.
  }
}

/** The first moment after `now` at which a rollout summary's last use falls behind max_unused_days (lint changes then). */
function staleAt(heads: readonly SummaryHead[], usage: UsageReport, version: MemoryVersion, maxUnusedDays: number, nowSec: number): number {
  const lastUse = new Map(usage.threads.map((t) => [t.threadId, t.db.find((d) => d.version === version)?.lastUsage?.seconds ?? null]));
  let next = Infinity;
  for (const head of heads) {
    const updated = head.header?.updatedAt ? Date.parse(head.header.updatedAt) / 1000 : NaN;
    const last = (head.header?.threadId ? lastUse.get(head.header.threadId) : null) ?? (Number.isFinite(updated) ? updated : null);
    if (last === null) continue;
    const at = last + maxUnusedDays * 86_400;
    if (at > nowSec && at < next) next = at;
  }
  return next;
}

function headsOf(indexed: IndexedHome, version: MemoryVersion): SummaryHead[] {
  indexed.heads ??= new Map();
  let heads = indexed.heads.get(version);
  if (!heads) indexed.heads.set(version, (heads = headsFromIndex(indexed.db, rootOf(indexed, version).list)));
  return heads;
}

/** The whole-root lint (with the whole-home rules), or with `onlyPath` that one file's share of it. */
export async function lintWithIndex(
  indexed: IndexedHome,
  version: MemoryVersion,
  onlyPath?: string,
  now = new Date(),
): Promise<LintReport> {
  // One file's share is the whole report filtered to it: the inspector then reads the kept answer too.
  if (onlyPath !== undefined) return onlyFile(await lintWithIndex(indexed, version, undefined, now), onlyPath);
  const nowSec = now.getTime() / 1000;
  const signature = await answerKey(indexed);
  const cached = codexCache<{ validUntil: number | null; report: LintReport }>(indexed.db, `lint:${version}`, signature);
  if (cached && nowSec < (cached.validUntil ?? Infinity)) return cached.report;
  const { root, list, gitSymlinks } = rootOf(indexed, version);
  const [base, usage] = await Promise.all([lintFromIndex(indexed.db, version, root, list, gitSymlinks), usageFromIndex(indexed)]);
  const knownThreads = new Set([
    ...indexed.sessions.files.flatMap((f) => (f.threadId ? [f.threadId] : [])),
    ...usage.threads.map((t) => t.threadId),
  ]);
  const heads = headsOf(indexed, version);
  const extra = await referenceFindings(
    indexed.home,
    version,
    {
      files: list.files,
      knownThreads,
      usage,
      heads,
      refs: (path) => refsFromIndex(indexed.db, version, path),
      budget: () => budgetWithIndex(indexed, version).catch(() => null),
    },
    now,
  );
  const report = withReferenceFindings(base, extra);
  const validUntil = staleAt(heads, usage, version, indexed.home.config.memories.maxUnusedDays, nowSec);
  remember(indexed, `lint:${version}`, signature, { validUntil: Number.isFinite(validUntil) ? validUntil : null, report });
  return report;
}

function onlyFile(report: LintReport, path: string): LintReport {
  const files = report.files.filter((f) => f.path === path);
  const counts = { error: 0, warning: 0, info: 0 };
  for (const file of files) for (const d of file.diagnostics) counts[d.severity]++;
  return { ...report, files, counts };
}

export async function rolloutsWithIndex(indexed: IndexedHome, version: MemoryVersion): Promise<RolloutTable> {
  const started = performance.now();
  const signature = await answerKey(indexed);
  const cached = codexCache<RolloutTable>(indexed.db, `rollouts:${version}`, signature);
  if (cached) return { ...cached, elapsedMs: Math.round(performance.now() - started) };
  const table = rolloutTable(version, headsOf(indexed, version), await usageFromIndex(indexed), started);
  remember(indexed, `rollouts:${version}`, signature, table);
  remember(indexed, `rollout-counts:${version}`, signature, countsOf(table));
  return table;
}

export interface RolloutCounts {
  rows: number;
  cited: number;
  /** Neither cited in a session nor counted as used in Codex's DB. */
  unused: number;
}

const countsOf = (table: RolloutTable): RolloutCounts => ({
  rows: table.rows.length,
  cited: table.rows.filter((r) => r.citations > 0).length,
  unused: table.rows.filter((r) => r.citations === 0 && !r.dbUsageCount).length,
});

/** The table's three counts (the CLI overview's), kept apart so a warm run does not read 4,096 rows for them. */
export async function rolloutCountsWithIndex(indexed: IndexedHome, version: MemoryVersion): Promise<RolloutCounts> {
  const cached = codexCache<RolloutCounts>(indexed.db, `rollout-counts:${version}`, await answerKey(indexed));
  return cached ?? countsOf(await rolloutsWithIndex(indexed, version));
}

/** The budget with o200k counts from the index (a text counted once is never counted again). */
export function budgetWithIndex(indexed: IndexedHome, version: MemoryVersion, limitTokens?: number): Promise<BudgetReport> {
  return budgetForRoot(rootOf(indexed, version).root, version, limitTokens, cachedTokenCounter(indexed.db));
}

/** The same, needing only the index's connection: the budget reads one file, so no walk is worth making for it. */
export function budgetWithCounts(db: Database.Database, root: string, version: MemoryVersion, limitTokens?: number): Promise<BudgetReport> {
  return budgetForRoot(root, version, limitTokens, cachedTokenCounter(db));
}

/** Works out every root's lint and rollout table and keeps them in the index (a worker does this after each refresh). */
export async function precomputeAnswers(indexed: IndexedHome): Promise<void> {
  for (const version of indexed.roots.keys()) {
    await lintWithIndex(indexed, version);
    await rolloutsWithIndex(indexed, version);
  }
}
