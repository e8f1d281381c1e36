// Review data that crosses the contract: proposals with their files, hunks and decisions, results of decisions, history.
import { z } from 'zod';
import { proposalSources } from './proposal-sources';
import { MemoryVersionSchema } from './domain';

export { proposalSources };
export const ProposalSourceSchema = z.enum(proposalSources);
export type ProposalSource = z.infer<typeof ProposalSourceSchema>;

export const ProposalStatusSchema = z.enum(['pending', 'applied', 'rejected', 'superseded']);
export type ProposalStatus = z.infer<typeof ProposalStatusSchema>;

export const ProposalFileStatusSchema = z.enum(['pending', 'applied', 'rejected']);
export type ProposalFileStatus = z.infer<typeof ProposalFileStatusSchema>;

export const HunkDecisionSchema = z.enum(['accept', 'reject']);
export type HunkDecision = z.infer<typeof HunkDecisionSchema>;

/** `text` is one region of a modified file; `create` and `delete` are whole-file changes decided at once. */
export const HunkKindSchema = z.enum(['text', 'create', 'delete']);
export type HunkKind = z.infer<typeof HunkKindSchema>;

export const HunkSchema = z.object({
  /** Stable for the same base/proposed pair: a hash of the old range and the hunk's exact lines. */
  id: z.string(),
  kind: HunkKindSchema,
  /** Unified-diff numbering: 1-based, or the line after which lines are inserted when the count is 0. */
  oldStart: z.number().int().nonnegative(),
  oldLines: z.number().int().nonnegative(),
  newStart: z.number().int().nonnegative(),
  newLines: z.number().int().nonnegative(),
  /** Unified lines (' ', '-', '+' then the text without its line ending; '\' marks a missing final newline). */
  lines: z.array(z.string()),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
});
export type Hunk = z.infer<typeof HunkSchema>;

export const DecisionMapSchema = z.record(z.string(), HunkDecisionSchema);
export type DecisionMap = z.infer<typeof DecisionMapSchema>;

export const FileChangeSchema = z.enum(['create', 'modify', 'delete', 'unchanged']);
export type FileChange = z.infer<typeof FileChangeSchema>;

export const ProposalFileSchema = z.object({
  ord: z.number().int().nonnegative(),
  version: MemoryVersionSchema,
  root: z.string(),
  relPath: z.string(),
  /** Null when the file was absent when the proposal was made. */
  baseSha256: z.string().nullable(),
  baseContent: z.string().nullable(),
  /** Null means the proposal deletes the file. */
  proposedContent: z.string().nullable(),
  change: FileChangeSchema,
  status: ProposalFileStatusSchema,
  hunks: z.array(HunkSchema),
  decisions: DecisionMapSchema,
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
});
export type ProposalFile = z.infer<typeof ProposalFileSchema>;

export const CodexDbNameSchema = z.enum(['memories_v1', 'memories_v2', 'state']);

/** A change to one of Codex's DBs the person confirms in a proposal (e.g. "forget this session"), shown as a row. */
export const DbChangeSchema = z.object({
  ord: z.number().int().nonnegative(),
  db: CodexDbNameSchema,
  description: z.string(),
  sqlKind: z.string(),
  params: z.unknown(),
});
export type DbChange = z.infer<typeof DbChangeSchema>;
export type DbChangeInput = Omit<DbChange, 'ord'>;

export const ProposalSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  source: ProposalSourceSchema,
  createdAt: z.number().int(),
  status: ProposalStatusSchema,
  appliedAt: z.number().int().nullable(),
  note: z.string().nullable(),
  fileCount: z.number().int().nonnegative(),
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
});
export type ProposalSummary = z.infer<typeof ProposalSummarySchema>;

export const ProposalSchema = ProposalSummarySchema.extend({
  files: z.array(ProposalFileSchema),
  dbChanges: z.array(DbChangeSchema),
});
export type Proposal = z.infer<typeof ProposalSchema>;

export const ProposalListSchema = z.object({
  proposals: z.array(ProposalSummarySchema),
  pendingCount: z.number().int().nonnegative(),
});
export type ProposalList = z.infer<typeof ProposalListSchema>;

export const FileActionSchema = z.enum(['write', 'delete', 'unchanged']);
export type FileAction = z.infer<typeof FileActionSchema>;

/** What Apply must do to one file: exactly this content (or a delete), checked against the base hash first. */
export const FileResultSchema = z.object({
  ord: z.number().int().nonnegative(),
  version: MemoryVersionSchema,
  root: z.string(),
  relPath: z.string(),
  baseSha256: z.string().nullable(),
  action: FileActionSchema,
  /** The full content to write when `action` is `write`, else null. */
  content: z.string().nullable(),
  sha256: z.string().nullable(),
  acceptedHunkIds: z.array(z.string()),
});
export type FileResult = z.infer<typeof FileResultSchema>;

export const ProposalResultSchema = z.object({
  proposalId: z.string(),
  files: z.array(FileResultSchema),
  dbChanges: z.array(DbChangeSchema),
});
export type ProposalResult = z.infer<typeof ProposalResultSchema>;

export const HistoryKindSchema = z.enum(['apply', 'external', 'revert']);
export type HistoryKind = z.infer<typeof HistoryKindSchema>;

export const HistoryFileSchema = z.object({
  version: MemoryVersionSchema,
  root: z.string(),
  relPath: z.string(),
  beforeSha256: z.string().nullable(),
  afterSha256: z.string().nullable(),
  beforeSize: z.number().int().nonnegative().nullable(),
  afterSize: z.number().int().nonnegative().nullable(),
});
export type HistoryFile = z.infer<typeof HistoryFileSchema>;

/** Where an imported file came from (recorded with an import proposal). */
export const FileProvenanceSchema = z.object({
  version: MemoryVersionSchema,
  /** The target path, relative to the root. */
  relPath: z.string(),
  /** `claude` or `cursor`. */
  tool: z.string(),
  sourcePath: z.string(),
  sourceMtimeMs: z.number(),
  /** SHA-256 (hex) of the source bytes as read. */
  sourceSha256: z.string(),
});
export type FileProvenance = z.infer<typeof FileProvenanceSchema>;

export const HistoryEntrySchema = z.object({
  id: z.string(),
  kind: HistoryKindSchema,
  proposalId: z.string().nullable(),
  at: z.number().int(),
  summary: z.string(),
  files: z.array(HistoryFileSchema),
  /** For an applied import: per file, the source it came from. */
  provenance: z.array(FileProvenanceSchema).optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export const HistoryDiffSchema = z.object({
  relPath: z.string(),
  from: z.object({ entryId: z.string(), sha256: z.string().nullable(), content: z.string().nullable() }),
  to: z.object({ entryId: z.string(), sha256: z.string().nullable(), content: z.string().nullable() }),
  hunks: z.array(HunkSchema),
});
export type HistoryDiff = z.infer<typeof HistoryDiffSchema>;

/** What `review.apply` reports: the history entry, the files written now, and how Codex's lease was left. */
export const AppliedProposalSchema = z.object({
  entry: HistoryEntrySchema,
  written: z.array(z.object({ version: MemoryVersionSchema, relPath: z.string(), action: z.enum(['write', 'delete']) })),
  /** Files an interrupted earlier Apply had already put in place. */
  alreadyInPlace: z.array(z.string()),
  lease: z.array(z.object({ version: MemoryVersionSchema, previous: z.enum(['restored', 'pending', 'absent']) })),
});
export type AppliedProposal = z.infer<typeof AppliedProposalSchema>;

/** `history.sinceBaseline`: the live files against the root's git baseline (Codex's last successful consolidation), read only. */
export const BaselineDiffSchema = z.object({
  version: MemoryVersionSchema,
  /** False when the root has no `.git` baseline (Codex has not consolidated yet, or git is missing). */
  hasBaseline: z.boolean(),
  /** The baseline commit, when there is one. */
  commit: z.string().nullable(),
  committedAt: z.number().int().nullable(),
  files: z.array(
    z.object({
      path: z.string(),
      status: z.enum(['added', 'modified', 'deleted']),
      hunks: z.array(HunkSchema),
    }),
  ),
  notes: z.array(z.string()),
});
export type BaselineDiff = z.infer<typeof BaselineDiffSchema>;
