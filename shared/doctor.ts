// The memory doctor's report: entries, findings (duplicate, agents-overlap, stale, oversize) with their evidence and fixes.
import { z } from 'zod';
import { MemoryVersionSchema } from './domain';

/** The curated files the doctor reads entries from (rollout summaries are Codex's own per-session records). */
export const DoctorFileSchema = z.enum(['MEMORY.md', 'memory_summary.md', 'raw_memories.md']);
export type DoctorFile = z.infer<typeof DoctorFileSchema>;

/**
 * `task-group`: a MEMORY.md block; `summary-entry`: a memory_summary.md topic or pointer (with its sub-bullets);
 * `summary-bullet`: a bullet of the summary's User preferences or General Tips; `raw-memory`: a raw_memories.md thread.
 */
export const EntryKindSchema = z.enum(['task-group', 'summary-entry', 'summary-bullet', 'raw-memory']);
export type EntryKind = z.infer<typeof EntryKindSchema>;

const line = z.number().int().min(1);

export const DoctorEntrySchema = z.object({
  /** `m-` + 12 hex: from the version, file and the entry's own text, so it survives edits elsewhere in the file. */
  id: z.string(),
  version: MemoryVersionSchema,
  file: DoctorFileSchema,
  kind: EntryKindSchema,
  title: z.string(),
  /** 1-based, inclusive; the entry's own lines (blank lines after it excluded). */
  line,
  endLine: line,
  /** The project folder it applies to (applies_to cwd, the raw memory's cwd, the summary scope's sessions), or null. */
  cwd: z.string().nullable(),
  /** The summary scope or section it sits under, or the task group's `scope:` line. */
  scope: z.string().nullable(),
  threadIds: z.array(z.string()),
  /** `rollout_summaries/<file>` it points at. */
  pointers: z.array(z.string()),
  keywords: z.array(z.string()),
  /** Newest `updated_at` among its sessions, unix seconds, or null. */
  updatedAt: z.number().int().nullable(),
});
export type DoctorEntry = z.infer<typeof DoctorEntrySchema>;

/** `forget`: raw memories are rebuilt from Codex's DB, so retiring one is Codex's own "forget this session". */
export const FixActionSchema = z.enum(['merge', 'retire', 'promote', 'forget']);
export type FixAction = z.infer<typeof FixActionSchema>;

export const FixOptionSchema = z.object({
  /** `<finding id>.<action>`: what `doctor --fix` and `doctor.fix` take. */
  id: z.string(),
  action: FixActionSchema,
  label: z.string(),
  description: z.string(),
  /** A promotion of an entry without a project folder needs one chosen (`--project DIR`). */
  needsProject: z.boolean(),
});
export type FixOption = z.infer<typeof FixOptionSchema>;

export const SharedLineSchema = z.object({ line, text: z.string() });
export type SharedLine = z.infer<typeof SharedLineSchema>;

export const DuplicateMemberSchema = z.object({
  entryId: z.string(),
  /** Jaccard similarity of the two entries' word shingles (0..1), after numbers, dates and ids are normalised. */
  similarity: z.number(),
  /** Lines of this member whose normalised text the kept entry also has (the first ones), and how many there are. */
  sharedLines: z.array(SharedLineSchema),
  sharedCount: z.number().int().nonnegative(),
  lineCount: z.number().int().nonnegative(),
});
export type DuplicateMember = z.infer<typeof DuplicateMemberSchema>;

export const DuplicateEvidenceSchema = z.object({
  kind: z.literal('duplicate'),
  /** The entry a merge keeps: the topmost (Codex orders blocks freshest first). */
  keptId: z.string(),
  /** Every member but the kept one; `members` shows the first 20 of them. */
  memberCount: z.number().int().nonnegative(),
  members: z.array(DuplicateMemberSchema),
  threshold: z.number(),
});

export const OverlapRelationSchema = z.enum(['restates', 'same-subject']);
export type OverlapRelation = z.infer<typeof OverlapRelationSchema>;

export const OverlapMatchSchema = z.object({
  memoryLine: line,
  memoryText: z.string(),
  ruleLine: line,
  ruleText: z.string(),
  relation: OverlapRelationSchema,
  score: z.number(),
  /** The words both sides use that made the match. */
  terms: z.array(z.string()),
});
export type OverlapMatch = z.infer<typeof OverlapMatchSchema>;

export const OverlapEvidenceSchema = z.object({
  kind: z.literal('agents-overlap'),
  /** Absolute path of the AGENTS.md / CLAUDE.md holding the rule. */
  ruleFile: z.string(),
  matches: z.array(OverlapMatchSchema),
});

export const StaleReasonSchema = z.discriminatedUnion('reason', [
  z.object({ reason: z.literal('pointers-gone'), pointers: z.array(z.object({ file: z.string(), line })), total: z.number().int() }),
  z.object({
    reason: z.literal('not-cited'),
    days: z.number().int(),
    /** Last citation of its lines or sessions (unix s), or null when never cited. */
    lastCitedAt: z.number().int().nullable(),
    /** What the age counts from: the last citation, or the newest session when it was never cited. */
    since: z.enum(['citation', 'session']),
  }),
  z.object({ reason: z.literal('project-gone'), cwd: z.string() }),
]);
export type StaleReason = z.infer<typeof StaleReasonSchema>;

export const StaleEvidenceSchema = z.object({ kind: z.literal('stale'), reasons: z.array(StaleReasonSchema) });

export const CutEntrySchema = z.object({ entryId: z.string(), title: z.string(), line, endLine: line, partial: z.boolean() });

export const OversizeEvidenceSchema = z.object({
  kind: z.literal('oversize'),
  headline: z.string(),
  limitTokens: z.number().int(),
  estimatedTokens: z.number().int(),
  removed: z.object({ startLine: line, endLine: line }),
  /** The entries Codex cuts, in file order; `partial` when the cut starts or ends inside one. */
  cut: z.array(CutEntrySchema),
});

export const FindingEvidenceSchema = z.discriminatedUnion('kind', [
  DuplicateEvidenceSchema,
  OverlapEvidenceSchema,
  StaleEvidenceSchema,
  OversizeEvidenceSchema,
]);
export type FindingEvidence = z.infer<typeof FindingEvidenceSchema>;

export const findingKinds = ['duplicate', 'agents-overlap', 'stale', 'oversize'] as const;
export const FindingKindSchema = z.enum(findingKinds);
export type FindingKind = z.infer<typeof FindingKindSchema>;

export const FindingSchema = z.object({
  /** `dup-`, `ovl-`, `stale-` or `size-` + 12 hex, from what triggered it: the same memory gives the same id. */
  id: z.string(),
  kind: FindingKindSchema,
  version: MemoryVersionSchema,
  file: DoctorFileSchema,
  severity: z.enum(['warning', 'info']),
  title: z.string(),
  message: z.string(),
  /** Where it starts in `file` (its first entry, or the cut), 1-based and inclusive. */
  line,
  endLine: line,
  entryIds: z.array(z.string()),
  evidence: FindingEvidenceSchema,
  fixes: z.array(FixOptionSchema),
  /** True when `doctor.modelMerge` accepts it: a duplicate cluster of a file Codex does not rebuild (not raw_memories.md). */
  modelMergeable: z.boolean().optional(),
});
export type Finding = z.infer<typeof FindingSchema>;

export const RuleFileSchema = z.object({
  path: z.string(),
  name: z.enum(['AGENTS.md', 'AGENTS.override.md', 'CLAUDE.md']),
  rules: z.number().int().nonnegative(),
});

export const DoctorProjectSchema = z.object({
  cwd: z.string(),
  exists: z.boolean(),
  /** Where it was named: an entry's cwd or scope, `--project`, or Codex's global AGENTS.md in the Codex home. */
  from: z.enum(['entry', 'scope', 'argument', 'global']),
  ruleFiles: z.array(RuleFileSchema),
  /** Rule files that could not be read (symlink, too big, not UTF-8), one sentence each. */
  skipped: z.array(z.string()),
});
export type DoctorProject = z.infer<typeof DoctorProjectSchema>;

/**
 * Stale findings of one reason and one project folder (hundreds on a heavy home), each group one bulk fix: a single
 * proposal that retires every entry of the group. `reason` is the finding's weightiest one (project gone, then
 * pointers gone, then never cited).
 */
export const StaleGroupSchema = z.object({
  /** `sgrp-` + 12 hex, from the reason and the project: what `doctor --fix` and `doctor.fixGroup` take. */
  id: z.string(),
  reason: z.enum(['project-gone', 'pointers-gone', 'not-cited']),
  /** The project folder of its entries, or null for entries that apply to none. */
  project: z.string().nullable(),
  title: z.string(),
  findingIds: z.array(z.string()),
  /** What the bulk fix does, in one sentence. */
  fixDescription: z.string(),
});
export type StaleGroup = z.infer<typeof StaleGroupSchema>;

export const DoctorReportSchema = z.object({
  codexHome: z.string(),
  generatedAt: z.number().int(),
  staleDays: z.number().int(),
  roots: z.array(z.object({ version: MemoryVersionSchema, path: z.string(), entries: z.number().int().nonnegative() })),
  /** The entries duplicate, overlap and oversize findings name (a stale finding carries its own lines). */
  entries: z.array(DoctorEntrySchema),
  projects: z.array(DoctorProjectSchema),
  findings: z.array(FindingSchema),
  /** The stale findings grouped by reason and project, largest group first (absent in reports of older versions). */
  staleGroups: z.array(StaleGroupSchema).optional(),
  counts: z.record(FindingKindSchema, z.number().int().nonnegative()),
  notes: z.array(z.string()),
  elapsedMs: z.number(),
});
export type DoctorReport = z.infer<typeof DoctorReportSchema>;

/** The optional model's words about a finding (the openai engine's settings). */
export const DoctorExplanationSchema = z.object({ findingId: z.string(), model: z.string(), text: z.string() });
export type DoctorExplanation = z.infer<typeof DoctorExplanationSchema>;

export const FINDING_ID = /^(?:dup|ovl|stale|size)-[0-9a-f]{12}$/;
export const FIX_ID = /^(?:dup|ovl|stale|size)-[0-9a-f]{12}\.(?:merge|retire|promote|forget)$/;
export const ENTRY_ID = /^m-[0-9a-f]{12}$/;
export const STALE_GROUP_ID = /^sgrp-[0-9a-f]{12}$/;

/** What a doctor run looks at: one version or every root, extra project folders, the "never cited" age. */
export const DoctorOptionsSchema = z.object({
  version: MemoryVersionSchema.optional(),
  projects: z.array(z.string().min(1).max(4096)).max(64).optional(),
  staleDays: z.number().int().min(1).max(3650).optional(),
});
export type DoctorOptions = z.infer<typeof DoctorOptionsSchema>;
