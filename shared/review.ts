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

/** Accept or reject: how a change hunk (`text`, `create`, `delete`) is decided. */
export const ChangeDecisionSchema = z.enum(['accept', 'reject']);
export type ChangeDecision = z.infer<typeof ChangeDecisionSchema>;

/**
 * How a `conflict` hunk is resolved: the disk's lines (`theirs`), the proposal's (`ours`), both (the disk's first), or
 * text written by hand (`edit`, with `ProposalFile.edits`). Accept and reject never resolve a conflict.
 */
export const ConflictResolutionSchema = z.enum(['theirs', 'ours', 'both', 'edit']);
export type ConflictResolution = z.infer<typeof ConflictResolutionSchema>;

export const HunkDecisionSchema = z.enum([...ChangeDecisionSchema.options, ...ConflictResolutionSchema.options]);
export type HunkDecision = z.infer<typeof HunkDecisionSchema>;

/**
 * `text` is one region of a modified file; `create` and `delete` are whole-file changes decided at once; `conflict`
 * is a region a rebase found changed both on disk and by the proposal, resolved with a `ConflictResolution`.
 */
export const HunkKindSchema = z.enum(['text', 'create', 'delete', 'conflict']);
export type HunkKind = z.infer<typeof HunkKindSchema>;

/** One side of a conflict: its lines in that version (unified numbering, as hunks) and their text without line endings. */
export const ConflictSideSchema = z.object({
  start: z.number().int().nonnegative(),
  lines: z.number().int().nonnegative(),
  text: z.array(z.string()),
});
export type ConflictSide = z.infer<typeof ConflictSideSchema>;

/**
 * A conflict found by a three-way rebase: `base` is in the file's merge base (its content when proposed, see
 * `review.mergeTexts`), `theirs` in `baseContent` (the disk when rebased), `ours` in `proposedContent`. `absent` says
 * which side has no file at all: `theirs` = deleted on disk, `ours` = the proposal deletes it (then `both` is refused).
 */
export const ConflictSchema = z.object({
  base: ConflictSideSchema,
  theirs: ConflictSideSchema,
  ours: ConflictSideSchema,
  /** Where ours' lines sit in the proposal's own version (`review.mergeTexts` ours), for the base -> ours view. */
  own: z.object({ start: z.number().int().nonnegative(), lines: z.number().int().nonnegative() }),
  absent: z.enum(['theirs', 'ours']).nullable(),
});
export type Conflict = z.infer<typeof ConflictSchema>;

/** A line of a hunk that holds a secret: its index in `lines`, and what it looks like in words (never the secret). */
export const HunkSecretSchema = z.object({ index: z.number().int().nonnegative(), label: z.string() });
export type HunkSecret = z.infer<typeof HunkSecretSchema>;

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
  /** Only on `conflict` hunks: the three versions of the conflicting lines. */
  conflict: ConflictSchema.optional(),
  /**
   * The lines that hold a secret, found by core's secret engine (the renderer has no secret logic; it marks these): in
   * a stored proposal or history entry, whose texts are masked, the lines masking recorded, so a redaction's removed
   * line and a secret kept in context are marked though shown as `abcd****`. An added one is always its own hunk,
   * never part of a larger change decided at once (a stored proposal never adds one: it is refused when stored).
   */
  secrets: z.array(HunkSecretSchema).optional(),
});
export type Hunk = z.infer<typeof HunkSchema>;

/** What a block of a Codex memory file is: the unit the block-aware review groups hunks by. */
export const BlockTypeSchema = z.enum(['preamble', 'task_group', 'section', 'scope', 'date_group', 'entry', 'thread', 'front_matter']);
export type BlockType = z.infer<typeof BlockTypeSchema>;

/** `moved`: the same block (by identity) sits elsewhere; `edited` on the block says whether it also changed. */
export const BlockStatusSchema = z.enum(['unchanged', 'added', 'removed', 'changed', 'moved']);
export type BlockStatus = z.infer<typeof BlockStatusSchema>;

/** Lines of one side, unified numbering as hunks (1-based start; `lines` may be 0 for an empty block). */
export const BlockSpanSchema = z.object({ start: z.number().int().nonnegative(), lines: z.number().int().nonnegative() });
export type BlockSpan = z.infer<typeof BlockSpanSchema>;

/**
 * One block of a file's outline in a review (MEMORY.md task group, summary section, scope, date group or entry, raw
 * memory thread, skill section), matched between the two versions. A child's lines are inside its parent's.
 */
export const ReviewBlockSchema = z.object({
  id: z.string(),
  parent: z.string().nullable(),
  depth: z.number().int().nonnegative(),
  type: BlockTypeSchema,
  title: z.string(),
  /** The title in the old version when the match renamed the block. */
  renamedFrom: z.string().nullable(),
  status: BlockStatusSchema,
  /** A moved block whose content changed too. */
  edited: z.boolean(),
  old: BlockSpanSchema.nullable(),
  new: BlockSpanSchema.nullable(),
  /** The hunks that belong to this block itself (its children list their own); a moved block has its removal and its insertion. */
  hunkIds: z.array(z.string()),
});
export type ReviewBlock = z.infer<typeof ReviewBlockSchema>;

/** A file's blocks in a review, for the structured view; `note` says why there are none (not a block-structured kind, or too big). */
export const FileBlocksSchema = z.object({
  /** The parser that cut the blocks (`memory_md`, `memory_summary`, `raw_memories`, `skill`), or null. */
  kind: z.string().nullable(),
  blocks: z.array(ReviewBlockSchema),
  /** Hunks no block holds on its own (a rebase's hunk spanning two blocks). */
  looseHunkIds: z.array(z.string()),
  note: z.string().nullable(),
});
export type FileBlocks = z.infer<typeof FileBlocksSchema>;

export const DecisionMapSchema = z.record(z.string(), HunkDecisionSchema);
export type DecisionMap = z.infer<typeof DecisionMapSchema>;

/** Hand-written text of conflict hunks resolved with `edit`: hunk id -> the lines that replace the conflicting ones. */
export const EditMapSchema = z.record(z.string(), z.string().max(32 * 1024 * 1024));
export type EditMap = z.infer<typeof EditMapSchema>;

export const FileChangeSchema = z.enum(['create', 'modify', 'delete', 'unchanged']);
export type FileChange = z.infer<typeof FileChangeSchema>;

/**
 * `memory`: a file of a Codex memory root (`root` is the root, `relPath` inside it). `project`: a project's own
 * instruction file that a promotion writes (`root` is the project folder, `relPath` is `AGENTS.md`); `version` then
 * names the memory the promotion came from. `agent-config`: an agent's own MCP configuration that connecting it
 * writes (`root` is its folder, `relPath` `config.toml`, `.claude.json` or `mcp.json`); `version` names the memory its
 * server serves. All go through the same proposal, lock, atomic write and history.
 */
export const FileTargetSchema = z.enum(['memory', 'project', 'agent-config']);
export type FileTarget = z.infer<typeof FileTargetSchema>;

export const ProposalFileSchema = z.object({
  ord: z.number().int().nonnegative(),
  version: MemoryVersionSchema,
  target: FileTargetSchema,
  root: z.string(),
  relPath: z.string(),
  /** Null when the file was absent when the proposal was made. */
  baseSha256: z.string().nullable(),
  /**
   * The two texts are not part of a proposal's answer (a consolidation's are megabytes, and the review shows hunks):
   * `review.fileTexts` gives one file's base and proposed content when a view needs them. `change` says which exists.
   */
  change: FileChangeSchema,
  status: ProposalFileStatusSchema,
  hunks: z.array(HunkSchema),
  decisions: DecisionMapSchema,
  edits: EditMapSchema,
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  /**
   * Set once a rebase merged the disk's changes in: the base (`review.fileTexts`) is then the disk at that time and conflict hunks
   * refer to the merge base, the file as it was when proposed (`review.mergeTexts` gives it with the proposal's own version).
   */
  rebase: z.object({ at: z.number().int(), mergeBaseSha256: z.string().nullable() }).nullable(),
});
export type ProposalFile = z.infer<typeof ProposalFileSchema>;

/** One file of a proposal as text: its base (null: the file was absent) and the proposed content (null: a delete). */
export const FileTextsSchema = z.object({ baseContent: z.string().nullable(), proposedContent: z.string().nullable() });
export type FileTexts = z.infer<typeof FileTextsSchema>;

export const CodexDbNameSchema = z.enum(['memories_v1', 'memories_v2', 'state']);

/** A change to one of Codex's DBs the person confirms in a proposal (e.g. "forget this session"), shown as a row. */
export const DbChangeSchema = z.object({
  ord: z.number().int().nonnegative(),
  db: CodexDbNameSchema,
  /** The memory root whose DB this changes (set by core from `db`); null for Codex's state DB. */
  version: MemoryVersionSchema.nullable(),
  description: z.string(),
  sqlKind: z.string(),
  params: z.unknown(),
});
export type DbChange = z.infer<typeof DbChangeSchema>;
export type DbChangeInput = Omit<DbChange, 'ord' | 'version'>;

/** The MCP client that proposed an `agent` proposal (its initialize `clientInfo`), and whether a person has opened it. */
export const ProposalAgentSchema = z.object({
  name: z.string(),
  version: z.string().nullable(),
  seen: z.boolean(),
});
export type ProposalAgent = z.infer<typeof ProposalAgentSchema>;

export const ProposalSummarySchema = z.object({
  id: z.string(),
  title: z.string(),
  source: ProposalSourceSchema,
  /** Set on `agent` proposals only. */
  agent: ProposalAgentSchema.nullable().default(null),
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
  /** Pending agent proposals no person has opened yet (the Review tab's "new from agents" badge). */
  agentNewCount: z.number().int().nonnegative().default(0),
});
export type ProposalList = z.infer<typeof ProposalListSchema>;

export const FileActionSchema = z.enum(['write', 'delete', 'unchanged']);
export type FileAction = z.infer<typeof FileActionSchema>;

/** What Apply must do to one file: exactly this content (or a delete), checked against the base hash first. */
export const FileResultSchema = z.object({
  ord: z.number().int().nonnegative(),
  version: MemoryVersionSchema,
  target: FileTargetSchema,
  root: z.string(),
  relPath: z.string(),
  baseSha256: z.string().nullable(),
  action: FileActionSchema,
  /**
   * The full content to write when `action` is `write` (and the request asked for contents), else null. As stored: each
   * secret masked (`abcd****`); Apply writes every line the decisions leave alone from the file on disk, secret included.
   */
  content: z.string().nullable(),
  /** SHA-256 of `content` as given here (masked where the file holds a secret). */
  sha256: z.string().nullable(),
  /** Hunks whose proposed side is written: accepted changes, and conflicts resolved with ours, both or edit. */
  acceptedHunkIds: z.array(z.string()),
  /** Conflict hunks without a resolution: Apply refuses while any file has one. */
  unresolvedHunkIds: z.array(z.string()),
  /** Lines the decisions add and remove compared with the base (for the Apply summary). */
  added: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
});
export type FileResult = z.infer<typeof FileResultSchema>;

export const ProposalResultSchema = z.object({
  proposalId: z.string(),
  files: z.array(FileResultSchema),
  dbChanges: z.array(DbChangeSchema),
});
export type ProposalResult = z.infer<typeof ProposalResultSchema>;

/** What a rebase did to one file of the proposal. */
export const RebasedFileReportSchema = z.object({
  ord: z.number().int().nonnegative(),
  version: MemoryVersionSchema,
  relPath: z.string(),
  /** `unchanged`: the disk still matches the base; `merged`: merged cleanly; `conflicts`: some need a decision. */
  outcome: z.enum(['unchanged', 'merged', 'conflicts']),
  /** The conflict hunks of the file after the rebase. */
  conflicts: z.array(z.string()),
  message: z.string(),
});
export type RebasedFileReport = z.infer<typeof RebasedFileReportSchema>;

export const RebaseOutcomeSchema = z.object({ proposal: ProposalSchema, files: z.array(RebasedFileReportSchema) });
export type RebaseOutcome = z.infer<typeof RebaseOutcomeSchema>;

/** A pending proposal's files whose disk content is no longer their base (the watcher's "changed on disk" warning). */
export const StaleFileSchema = z.object({
  ord: z.number().int().nonnegative(),
  version: MemoryVersionSchema,
  relPath: z.string(),
  /** `changed`: other content; `deleted`: gone; `created`: a file appeared where the proposal expected none; `unreadable`. */
  state: z.enum(['changed', 'deleted', 'created', 'unreadable']),
  message: z.string(),
});
export type StaleFile = z.infer<typeof StaleFileSchema>;

export const ProposalStalenessSchema = z.object({ proposalId: z.string(), stale: z.array(StaleFileSchema) });
export type ProposalStaleness = z.infer<typeof ProposalStalenessSchema>;

/** The three versions behind a rebased file's conflicts (null = no file); before any rebase all three are the proposal's own. */
export const MergeTextsSchema = z.object({ base: z.string().nullable(), theirs: z.string().nullable(), ours: z.string().nullable() });
export type MergeTexts = z.infer<typeof MergeTextsSchema>;

export const HistoryKindSchema = z.enum(['apply', 'external', 'revert']);
export type HistoryKind = z.infer<typeof HistoryKindSchema>;

export const HistoryFileSchema = z.object({
  version: MemoryVersionSchema,
  target: FileTargetSchema,
  root: z.string(),
  relPath: z.string(),
  beforeSha256: z.string().nullable(),
  afterSha256: z.string().nullable(),
  beforeSize: z.number().int().nonnegative().nullable(),
  afterSize: z.number().int().nonnegative().nullable(),
  /**
   * Secrets this change removed from the file (a redaction, a deleted line or file). Memory Studio keeps no secret, so
   * they are gone: a revert restores those lines with each secret masked (`abcd****`), never the secret.
   */
  secretsRemoved: z.number().int().positive().optional(),
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
  /**
   * The source home the import read (the Claude or Cursor home, the repository, or Cursor's state.vscdb): a later import
   * removes this file only when it reads the same source home and finds the source gone. Null in records made before.
   */
  sourceHome: z.string().nullable().optional(),
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
  blocks: FileBlocksSchema.optional(),
});
export type HistoryDiff = z.infer<typeof HistoryDiffSchema>;

/** One file of one history entry as it changed: its content before and after the entry, and the hunks between them. */
export const HistoryEntryDiffSchema = z.object({
  entryId: z.string(),
  version: MemoryVersionSchema,
  target: FileTargetSchema,
  root: z.string(),
  relPath: z.string(),
  before: z.object({ sha256: z.string().nullable(), content: z.string().nullable() }),
  after: z.object({ sha256: z.string().nullable(), content: z.string().nullable() }),
  hunks: z.array(HunkSchema),
  blocks: FileBlocksSchema.optional(),
});
export type HistoryEntryDiff = z.infer<typeof HistoryEntryDiffSchema>;

/** One file against the root's git baseline: the baseline's content (null = not in it) and the live one (null = deleted). */
export const BaselineFileDiffSchema = z.object({
  version: MemoryVersionSchema,
  path: z.string(),
  status: z.enum(['added', 'modified', 'deleted', 'unchanged']),
  before: z.string().nullable(),
  after: z.string().nullable(),
  hunks: z.array(HunkSchema),
  blocks: FileBlocksSchema.optional(),
  /** Why the texts or hunks are not shown (not UTF-8, too large), or null. */
  note: z.string().nullable(),
});
export type BaselineFileDiff = z.infer<typeof BaselineFileDiffSchema>;

/** What `review.apply` reports: the history entry, the files written now, and how Codex's lease was left. */
export const AppliedProposalSchema = z.object({
  entry: HistoryEntrySchema,
  written: z.array(
    z.object({
      version: MemoryVersionSchema,
      target: FileTargetSchema,
      root: z.string(),
      relPath: z.string(),
      action: z.enum(['write', 'delete']),
    }),
  ),
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
