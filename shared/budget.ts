// The budget lens: what of memory_summary.md the next Codex session is told, byte for byte (codex-memory.md section 4).
import { z } from 'zod';
import { MemoryVersionSchema } from './domain';

const count = z.number().int().min(0);

/** Where the token limit came from: Codex's current constant, the user's config, or an explicit override (e.g. "what would 5,000 show"). */
export const BudgetLimitSourceSchema = z.enum(['default', 'config', 'override']);
export type BudgetLimitSource = z.infer<typeof BudgetLimitSourceSchema>;

/**
 * The middle Codex cuts out, in the ORIGINAL file: bytes `startByte`..`endByte` (end exclusive, a BOM counts),
 * 1-based lines `startLine`..`endLine` (LF, CRLF or a lone CR end a line; a line's break belongs to it).
 * `startLinePartial`: the head still shows the beginning of `startLine`; `endLinePartial`: the tail still
 * shows the end of `endLine`.
 */
export const BudgetRemovedSchema = z.object({
  startByte: count,
  endByte: count,
  startLine: z.number().int().min(1),
  endLine: z.number().int().min(1),
  startLinePartial: z.boolean(),
  endLinePartial: z.boolean(),
});
export type BudgetRemoved = z.infer<typeof BudgetRemovedSchema>;

/** One developer-prompt fragment, as byte offsets into `injectedText` (end exclusive). */
export const BudgetFragmentSchema = z.object({
  index: count,
  startByte: count,
  endByte: count,
  bytes: count,
});
export type BudgetFragment = z.infer<typeof BudgetFragmentSchema>;

export const BudgetReportSchema = z.object({
  version: MemoryVersionSchema,
  /** False when the root has no memory_summary.md: Codex then injects nothing. */
  summaryExists: z.boolean(),
  limitTokens: count,
  limitSource: BudgetLimitSourceSchema,
  /** `limitTokens * 4`: the bytes Codex keeps whole. */
  limitBytes: count,
  /** UTF-8 bytes of the file as read (a BOM counts; Codex keeps it). */
  summaryBytes: count,
  /** UTF-8 bytes after Rust's `str::trim` (Unicode White_Space at both ends). */
  trimmedBytes: count,
  /** Bytes the trim removed before the text; add it to an offset in the trimmed text to get a file offset. */
  leadingTrimBytes: count,
  /** Codex's own estimate of the trimmed summary: ceil(trimmedBytes / 4). */
  estimatedTokens: count,
  /** The same text counted with the o200k_base tokenizer (what the model really reads). */
  o200kTokens: count,
  truncated: z.boolean(),
  /** Exactly what goes into `{{ memory_summary }}` of the read-path template ('' when nothing is injected). */
  injectedText: z.string(),
  injectedBytes: count,
  injectedO200kTokens: count,
  removed: BudgetRemovedSchema.nullable(),
  /** `…N tokens truncated…` as inserted between head and tail; null when nothing was cut. */
  markerText: z.string().nullable(),
  /** v2: fragments of at most 8,900 bytes; v1: the whole text as one fragment; none when nothing is injected. */
  fragments: z.array(BudgetFragmentSchema),
  /** Where this report knowingly differs from what Codex does, and other facts worth showing. */
  notes: z.array(z.string()),
});
export type BudgetReport = z.infer<typeof BudgetReportSchema>;

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
