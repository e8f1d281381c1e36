// What `inspect`, `lint`, `budget` and `secrets` report on a home, answered from the home's index (the service's
// channels answer when the index is off): the same readers the app's inspect channels use.
import type Database from 'better-sqlite3';
import type { BudgetReport } from '../../../../shared/budget';
import type { FileList, HomeInfo, MemoryVersion } from '../../../../shared/domain';
import type { HealthReport } from '../../../../shared/health';
import type { LintReport } from '../../../../shared/lint';
import { editorCapNote, maskedInjectedText } from '../../budget/budget';
import { keptHealth } from '../../codex-db/health-memo';
import { FILES } from '../../codex/constants';
import { ANALYSIS_CAP_BYTES, DEFAULT_READ_CAP_BYTES, readMemoryFile } from '../../codex/workspace';
import { healthCache } from '../../index-store/health-cache';
import {
  budgetWithCounts,
  budgetWithIndex,
  lintWithIndex,
  rolloutCountsWithIndex,
  rootOf,
  type IndexedHome,
} from '../../index-store/inspect';
import { runTask } from '../../runtime/pool';

export { DEFAULT_READ_CAP_BYTES, editorCapNote };

/** The answers an overview needs for one home, per version. */
export interface IndexedOverview {
  list(version: MemoryVersion): Promise<FileList>;
  lint(version: MemoryVersion): Promise<LintReport>;
  budget(version: MemoryVersion): Promise<BudgetReport>;
  /** How many rollout summaries, how many cited, how many never used. */
  rollouts(version: MemoryVersion): Promise<{ rows: number; cited: number; unused: number }>;
  health(): Promise<HealthReport>;
}

/** The overview's answers from the index; health as given (started before the refresh) or read now on a worker. */
export function indexedOverview(indexed: IndexedHome, home: HomeInfo, health: Promise<HealthReport> | null): IndexedOverview {
  return {
    list: async (version) => rootOf(indexed, version).list,
    lint: (version) => lintWithIndex(indexed, version),
    budget: (version) => budgetWithIndex(indexed, version),
    rollouts: (version) => rolloutCountsWithIndex(indexed, version),
    health: () => health ?? runTask('health', { home }),
  };
}

/**
 * Health: kept in the index while Codex's DBs and the clock window are unchanged; otherwise read on a worker (a few
 * hundred milliseconds of Codex's DBs) while the caller's thread walks the roots.
 */
export function startHealth(home: HomeInfo, indexPath: string): Promise<HealthReport> {
  const kept = keptHealth(home, healthCache(indexPath));
  const health = kept ? Promise.resolve(kept) : runTask('health', { home, cachePath: indexPath });
  health.catch(() => undefined);
  return health;
}

/**
 * One root's budget: from the index's token counts, or (the index off) counted on a worker. A truncated summary's
 * injected text is masked from the whole file: the cut can leave the tail of a secret whose start it dropped, and the
 * output masking cannot recognise a tail. The file is read again; if it changed since, the text of the new file is
 * masked the same way (it is output, never written back).
 */
export async function budgetForCommand(
  db: Database.Database | null,
  root: string,
  version: MemoryVersion,
  limit: number | undefined,
): Promise<BudgetReport> {
  const report = db ? await budgetWithCounts(db, root, version, limit) : await runTask('budget', { root, version, limitTokens: limit });
  if (!report.truncated) return report;
  const file = await readMemoryFile(root, report.version, FILES.summary, ANALYSIS_CAP_BYTES);
  return { ...report, injectedText: maskedInjectedText(file.content, { version: report.version, limitTokens: report.limitTokens }) };
}
