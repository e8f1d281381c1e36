// Says exactly what Apply will write and where (from `review.result`), and why Apply cannot run yet when it cannot.
import type { ProposalResult, StaleFile } from '../../../shared/review';
import { plural } from '../lib/format';

export interface ApplySummary {
  /** The button's label: "Write 1 file in /…/memories: memory_summary.md (+2 −0)". */
  label: string;
  /** Nothing would change: Apply is disabled. */
  empty: boolean;
}

export function summarizeApply(result: ProposalResult): ApplySummary {
  const byRoot = new Map<string, string[]>();
  let count = 0;
  for (const file of result.files) {
    if (file.action === 'unchanged') continue;
    const what = file.action === 'delete' ? `delete ${file.relPath}` : `${file.relPath} (+${file.added} −${file.removed})`;
    byRoot.set(file.root, [...(byRoot.get(file.root) ?? []), what]);
    count += 1;
  }
  const dbCount = result.dbChanges.length;
  if (count === 0 && dbCount === 0) return { label: 'Nothing to write: no change is accepted', empty: true };
  const parts = [...byRoot].map(([root, files]) => `in ${root}: ${files.join(', ')}`);
  const filesPart = count > 0 ? `Write ${plural(count, 'file')} ${parts.join('; ')}` : '';
  const dbPart = dbCount > 0 ? `${count > 0 ? ' and apply' : 'Apply'} ${plural(dbCount, 'change')} to Codex's database` : '';
  return { label: `${filesPart}${dbPart}`, empty: false };
}

/**
 * Why Apply must wait, or null: a file changed on disk (rebase first) or a conflict is unresolved. Apply would refuse
 * either way and write nothing; saying so on the button spares the round trip.
 */
export function applyBlocked(stale: readonly StaleFile[], result: ProposalResult | undefined): string | null {
  if (stale.length > 0) {
    const first = stale[0] as StaleFile;
    return `Rebase first: ${stale.length === 1 ? `${first.relPath} changed` : `${stale.length} files changed`} on disk since you proposed this`;
  }
  const open = result?.files.reduce((n, f) => n + f.unresolvedHunkIds.length, 0) ?? 0;
  if (open > 0) return `Resolve ${plural(open, 'conflict')} first: theirs, ours, both or edit`;
  return null;
}
