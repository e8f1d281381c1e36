// The budget lens: what of memory_summary.md the next Codex session is told, byte for byte (docs/codex-facts.md, What the next session is told).
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

// The wording lives in budget-text.ts, which loads no zod (the CLI's inspect path imports it alone).
export { budgetHeadline, injectedTokenEstimate, removedLinesBanner, type BudgetHeadline } from './budget-text';
