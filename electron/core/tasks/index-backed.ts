// Pool tasks that join a model area with the index's memo: the budget with the index's token counts, the health report
// with its memo of Codex's DBs. They live here, above both, so neither the budget nor the Codex DB reader reaches up.
import type { BudgetReport } from '../../../shared/budget';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { HealthReport } from '../../../shared/health';
import { budgetForRoot } from '../budget/budget';
import { readPipelineHealth } from '../codex-db/health';

/** The budget as a pool task: token counts of a long summary take long enough to stall the main loop. */
export async function budgetTask(input: {
  root: string;
  version: MemoryVersion;
  limitTokens?: number;
  cachePath?: string;
}): Promise<BudgetReport> {
  // With the index at hand, counts made once are remembered there (a warm budget never loads the tokenizer).
  const counter = input.cachePath ? (await import('../index-store/token-cache.js')).indexTokenCounter(input.cachePath) : undefined;
  return budgetForRoot(input.root, input.version, input.limitTokens, counter);
}

/** The health report as a pool task: its reads of Codex's DBs are synchronous and take 100-300 ms on a heavy home. */
export async function healthTask(input: { home: HomeInfo; cachePath?: string }): Promise<HealthReport> {
  if (!input.cachePath) return readPipelineHealth(input.home);
  const cache = (await import('../index-store/health-cache.js')).healthCache(input.cachePath);
  return (await import('../codex-db/health-memo.js')).readHealthKept(input.home, cache);
}
