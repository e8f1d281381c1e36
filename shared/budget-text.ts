// What a budget report means in words: the headline, the cut banner, Codex's estimate. No zod, so the CLI loads it cheaply.
import type { BudgetRemoved, BudgetReport } from './budget';

/** The banner text for a cut summary: "the next session does not see lines X–Y", with the partial ends named. */
export function removedLinesBanner(removed: BudgetRemoved): string {
  const { startLine: x, endLine: y } = removed;
  const base = x === y ? `the next session does not see line ${x}` : `the next session does not see lines ${x}\u2013${y}`;
  const kept: string[] = [];
  if (removed.startLinePartial) kept.push(`the start of line ${x}`);
  if (removed.endLinePartial) kept.push(`the end of line ${y}`);
  return kept.length === 0 ? base : `${base} (it still sees ${kept.join(' and ')})`;
}

/** Codex's own estimate of what it injects: UTF-8 bytes / 4, rounded up (the cut marker included). */
export function injectedTokenEstimate(budget: BudgetReport): number {
  return Math.ceil(budget.injectedBytes / 4);
}

export interface BudgetHeadline {
  /** Whether Codex injects the summary whole, by its own rule (estimate ≤ limit). */
  fits: boolean;
  /** One glance: fits, or what Codex cuts. */
  headline: string;
  /** The figures behind it, with Codex's estimate first and the o200k count explained. */
  detail: string;
}

const fmt = (value: number) => value.toLocaleString('en-US');

/**
 * What the next session gets, in Codex's terms: Codex keeps the summary whole when its estimate (bytes / 4) is within
 * the limit, and otherwise cuts the middle. The o200k count is a real tokenizer's, shown second: Codex does not use it.
 */
export function budgetHeadline(budget: BudgetReport): BudgetHeadline {
  const o200k = `A real tokenizer (o200k) counts ${fmt(budget.o200kTokens)} tokens in the file and ${fmt(budget.injectedO200kTokens)} in what is injected; Codex decides by its estimate, not by that count.`;
  if (!budget.summaryExists || budget.injectedBytes === 0) {
    return { fits: true, headline: 'Nothing to inject: Codex adds no memory summary to the next session', detail: '' };
  }
  if (!budget.truncated || !budget.removed) {
    return {
      fits: true,
      headline: `Fits: the next session sees all of it, ${fmt(budget.estimatedTokens)} of ${fmt(budget.limitTokens)} tokens by Codex's estimate`,
      detail: `Codex's estimate is UTF-8 bytes ÷ 4 (${fmt(budget.trimmedBytes)} bytes). ${o200k}`,
    };
  }
  const { startLine, endLine } = budget.removed;
  const lines = endLine - startLine + 1;
  return {
    fits: false,
    headline: `Codex cuts ${fmt(lines)} line${lines === 1 ? '' : 's'} (${startLine === endLine ? `line ${startLine}` : `${startLine}–${endLine}`}): ${fmt(budget.estimatedTokens)} tokens by Codex's estimate, over the ${fmt(budget.limitTokens)} limit`,
    detail:
      `Codex keeps the first and the last ${fmt(budget.limitBytes / 2)} bytes and puts “${budget.markerText ?? ''}” between them: ` +
      `the next session gets ${fmt(injectedTokenEstimate(budget))} tokens by the same estimate (${fmt(budget.injectedBytes)} bytes). ${o200k}`,
  };
}
