// The rollout-summary table: one row per file with its header, title, Codex's usage counters and citations.
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { RolloutTable } from '../../../shared/inspect';
import { collectUsage } from '../sessions';
import { listMemoryRoot } from '../codex/workspace';
import { rolloutTable } from './rollout-table';
import { readSummaryHeads } from './summary-heads';

export { rolloutTable } from './rollout-table';

export async function buildRolloutTable(home: HomeInfo, version: MemoryVersion, root: string): Promise<RolloutTable> {
  const started = performance.now();
  const [list, usage] = await Promise.all([listMemoryRoot(root, version), collectUsage(home)]);
  const heads = await readSummaryHeads(
    root,
    list.files.filter((f) => f.kind === 'rollout-summary'),
  );
  return rolloutTable(version, heads, usage, started);
}
