// Views assembled from several parsers and stores: the rollout table, the project lens, and a home overview.
import { z } from 'zod';
import { MemoryVersionSchema } from './domain';

export const RolloutRowSchema = z.object({
  /** `rollout_summaries/<file>.md`, relative to the root. */
  path: z.string(),
  threadId: z.string().nullable(),
  /** The header's `updated_at` (RFC 3339) as written. */
  updatedAt: z.string().nullable(),
  cwd: z.string().nullable(),
  /** Last path component of cwd: the project as people say it. */
  project: z.string().nullable(),
  gitBranch: z.string().nullable(),
  title: z.string().nullable(),
  bytes: z.number().int(),
  mtimeMs: z.number(),
  /** `stage1_outputs.usage_count` / `last_usage` (unix s) for the thread, from the version's memory DB. */
  dbUsageCount: z.number().int().nullable(),
  dbLastUsage: z.number().int().nullable(),
  /** Citation blocks in session files that name this file or its thread. */
  citations: z.number().int(),
});
export type RolloutRow = z.infer<typeof RolloutRowSchema>;

export const RolloutTableSchema = z.object({
  version: MemoryVersionSchema,
  rows: z.array(RolloutRowSchema),
  /** Why some columns may be empty (a missing DB, unreadable sessions). */
  notes: z.array(z.string()),
  elapsedMs: z.number(),
});
export type RolloutTable = z.infer<typeof RolloutTableSchema>;

export const ProjectEntryKindSchema = z.enum(['summary-scope', 'memory-block', 'rollout-summary', 'raw-thread', 'import-resource']);
export type ProjectEntryKind = z.infer<typeof ProjectEntryKindSchema>;

export const ProjectEntrySchema = z.object({
  kind: ProjectEntryKindSchema,
  /** File relative to the root, and the entry's line range in it. */
  path: z.string(),
  line: z.number().int(),
  endLine: z.number().int(),
  title: z.string(),
  /** The cwd this entry says it applies to (when it says). */
  cwd: z.string().nullable(),
});
export type ProjectEntry = z.infer<typeof ProjectEntrySchema>;

export const MisfiledEntrySchema = ProjectEntrySchema.extend({
  /** The project the entry is filed under, and the project its evidence points at. */
  filedUnder: z.string(),
  appliesTo: z.string(),
  message: z.string(),
});
export type MisfiledEntry = z.infer<typeof MisfiledEntrySchema>;

export const ProjectSchema = z.object({
  /** A stable key: the cwd when known, else the scope name. */
  key: z.string(),
  name: z.string(),
  cwd: z.string().nullable(),
  entries: z.array(ProjectEntrySchema),
});
export type Project = z.infer<typeof ProjectSchema>;

export const ProjectLensSchema = z.object({
  version: MemoryVersionSchema,
  projects: z.array(ProjectSchema),
  /** Entries filed under one project whose evidence (rollout cwd) belongs to another. */
  misfiled: z.array(MisfiledEntrySchema),
  /** Entries with no project at all (global memory). */
  unscoped: z.array(ProjectEntrySchema),
});
export type ProjectLens = z.infer<typeof ProjectLensSchema>;
