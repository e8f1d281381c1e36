// `oversize`: a memory_summary.md over Codex's budget, with the entries that fall in the cut, in their order.
import type { BudgetReport } from '../../../shared/budget';
import { budgetHeadline } from '../../../shared/budget-text';
import type { Finding } from '../../../shared/doctor';
import type { MemoryVersion } from '../../../shared/domain';
import { computeBudget } from '../budget';
import type { EntryModel } from '../review/blocks/entries';
import { findingId, fixOption } from './finding-ids';

/** The summary's entries whose lines Codex's cut touches; `partial` when the head or tail still shows part of one. */
function cutEntries(
  entries: readonly EntryModel[],
  removed: NonNullable<BudgetReport['removed']>,
): { model: EntryModel; partial: boolean }[] {
  return entries
    .filter((m) => m.entry.file === 'memory_summary.md' && m.entry.line <= removed.endLine && m.entry.endLine >= removed.startLine)
    .map((model) => ({
      model,
      partial:
        model.entry.line < removed.startLine ||
        model.entry.endLine > removed.endLine ||
        (model.entry.line === removed.startLine && removed.startLinePartial) ||
        (model.entry.endLine === removed.endLine && removed.endLinePartial),
    }));
}

/** The finding for one root's summary text, or null when Codex injects it whole. */
export function oversizeFinding(
  version: MemoryVersion,
  summary: string,
  entries: readonly EntryModel[],
  limitTokens?: number,
  countTokens?: (text: string) => number,
): Finding | null {
  const budget = computeBudget(summary, { version, limitTokens, countTokens });
  if (!budget.truncated || !budget.removed) return null;
  const cut = cutEntries(entries, budget.removed);
  const whole = cut.filter((c) => !c.partial);
  const id = findingId('oversize', version, ...cut.map((c) => c.model.entry.id));
  const { headline } = budgetHeadline(budget);
  const fixes =
    whole.length > 0
      ? [
          fixOption(
            id,
            'retire',
            `Remove the ${whole.length} entr${whole.length === 1 ? 'y' : 'ies'} Codex cuts whole (the next session never sees them anyway); their rollout summaries stay. Review each one: reject the hunks of entries to keep, and merge duplicates first.`,
            { label: 'Retire what is cut' },
          ),
        ]
      : [];
  return {
    id,
    kind: 'oversize',
    version,
    file: 'memory_summary.md',
    severity: 'warning',
    title: `memory_summary.md is over Codex's budget: ${cut.length} entr${cut.length === 1 ? 'y falls' : 'ies fall'} in the cut`,
    message: `${headline}. The next session does not see lines ${budget.removed.startLine}–${budget.removed.endLine}.`,
    line: budget.removed.startLine,
    endLine: budget.removed.endLine,
    entryIds: cut.map((c) => c.model.entry.id),
    evidence: {
      kind: 'oversize',
      headline,
      limitTokens: budget.limitTokens,
      estimatedTokens: budget.estimatedTokens,
      removed: { startLine: budget.removed.startLine, endLine: budget.removed.endLine },
      cut: cut.map((c) => ({
        entryId: c.model.entry.id,
        title: c.model.entry.title,
        line: c.model.entry.line,
        endLine: c.model.entry.endLine,
        partial: c.partial,
      })),
    },
    fixes,
  };
}
