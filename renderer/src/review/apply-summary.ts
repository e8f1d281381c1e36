// Says exactly what Apply will write and where, from `review.result` and the proposal's hunks.
import type { Proposal, ProposalResult } from '../../../shared/review';
import { plural } from '../lib/format';

export interface ApplySummary {
  /** The button's label: "Write 1 file in /…/memories: memory_summary.md (+2 −0)". */
  label: string;
  /** Nothing would change: Apply is disabled. */
  empty: boolean;
}

function fileCounts(proposal: Proposal, ord: number, accepted: readonly string[]): { added: number; removed: number } {
  const file = proposal.files.find((f) => f.ord === ord);
  const ids = new Set(accepted);
  let added = 0;
  let removed = 0;
  for (const hunk of file?.hunks ?? []) {
    if (!ids.has(hunk.id)) continue;
    added += hunk.added;
    removed += hunk.removed;
  }
  return { added, removed };
}

export function summarizeApply(proposal: Proposal, result: ProposalResult): ApplySummary {
  const byRoot = new Map<string, string[]>();
  let count = 0;
  for (const file of result.files) {
    if (file.action === 'unchanged') continue;
    const { added, removed } = fileCounts(proposal, file.ord, file.acceptedHunkIds);
    const what = file.action === 'delete' ? `delete ${file.relPath}` : `${file.relPath} (+${added} −${removed})`;
    byRoot.set(file.root, [...(byRoot.get(file.root) ?? []), what]);
    count += 1;
  }
  const dbCount = result.dbChanges.length;
  if (count === 0 && dbCount === 0) return { label: 'Nothing to write: no change is accepted', empty: true };
  const parts = [...byRoot].map(([root, files]) => `in ${root}: ${files.join(', ')}`);
  const filesPart = count > 0 ? `Write ${plural(count, 'file')} ${parts.join('; ')}` : '';
  const dbPart = dbCount > 0 ? `${count > 0 ? ' and apply' : 'Apply'} ${plural(dbCount, "change")} to Codex's database` : '';
  return { label: `${filesPart}${dbPart}`, empty: false };
}
