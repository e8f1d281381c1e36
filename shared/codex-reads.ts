// Words for which root Codex reads, shared by every place that shows it (sidebar, file header, budget, status bar).
import type { BudgetReport } from './budget';
import { budgetHeadline, type BudgetHeadline } from './budget-text';
import type { CodexReads, MemoryVersion } from './domain';

/** Why Codex does not read `version`'s root ("config: v1", "memories off"), or null when it does. */
export function notReadReason(reads: CodexReads, version: MemoryVersion): string | null {
  if (reads.off === 'feature-off') return 'config: memories feature off';
  if (reads.off === 'use-memories-off') return 'config: use_memories = false';
  if (version === reads.version) return null;
  return `${reads.source === 'config' ? 'config' : 'default'}: ${reads.version}`;
}

/** The badge of a root Codex does not read: "not read by Codex (config: v1)"; null for the root it reads. */
export function notReadBadge(reads: CodexReads, version: MemoryVersion): string | null {
  const reason = notReadReason(reads, version);
  return reason === null ? null : `not read by Codex (${reason})`;
}

/** The longer explanation, for a tooltip. */
export function codexReadsTitle(reads: CodexReads): string {
  const which =
    reads.source === 'config'
      ? `config.toml sets [memories] version = "${reads.version}"`
      : `config.toml sets no [memories] version, so Codex uses its default, ${reads.version}`;
  if (reads.off === 'feature-off')
    return `A new Codex session is told no memory: the memories feature is off (turn it on with [features] memories = true in config.toml). ${which}.`;
  if (reads.off === 'use-memories-off')
    return `A new Codex session is told no memory: [memories] use_memories = false in config.toml. ${which}.`;
  return `A new Codex session is told ${reads.version === 'v1' ? 'memories/' : 'memories_v2/'}memory_summary.md: ${which}.`;
}

/** Codex's budget headline, unless Codex does not read the summary's root: then the next session sees none of it. */
export function readBudgetHeadline(budget: BudgetReport, reads: CodexReads): BudgetHeadline {
  const headline = budgetHeadline(budget);
  const badge = notReadBadge(reads, budget.version);
  if (!badge) return headline;
  const lower = headline.headline.charAt(0).toLowerCase() + headline.headline.slice(1);
  return {
    fits: false,
    headline: `${badge.charAt(0).toUpperCase()}${badge.slice(1)}: the next session sees none of this file`,
    detail: `Were this root read: ${lower}. ${headline.detail}`.trim(),
  };
}
