// Provenance and usage: which sessions cited which memory files and lines, and what Codex's DB counted.
import { z } from 'zod';
import { FileKindSchema, MemoryVersionSchema } from './domain';
import { DbProblemSchema, UnixTimeSchema } from './health';

/**
 * How a citation was tied to a memory root, since a relative path does not say: the cited path names the root
 * (`memories_v2/…` or an absolute path), the session's own read-path prompt (`…/memories_v2/memory_summary.md`),
 * the only root holding that path, a v1-only file kind, or the configured version as the last resort.
 */
export const VersionBasisSchema = z.enum(['path-prefix', 'session-base-path', 'exists-in-one-root', 'v1-only-kind', 'configured-version']);
export type VersionBasis = z.infer<typeof VersionBasisSchema>;

export const RangeUsageSchema = z.object({
  lineStart: z.number().int(),
  lineEnd: z.number().int(),
  count: z.number().int(),
  firstCitedAt: UnixTimeSchema.nullable(),
  lastCitedAt: UnixTimeSchema.nullable(),
  citingThreadIds: z.array(z.string()),
});
export type RangeUsage = z.infer<typeof RangeUsageSchema>;

export const FileUsageSchema = z.object({
  version: MemoryVersionSchema,
  /** As cited, relative to the memory root. */
  path: z.string(),
  kind: FileKindSchema,
  /** False when the cited path is not a safe root-relative path (absolute, `..`, backslashes): never resolved. */
  pathValid: z.boolean(),
  versionBasis: VersionBasisSchema,
  count: z.number().int(),
  firstCitedAt: UnixTimeSchema.nullable(),
  lastCitedAt: UnixTimeSchema.nullable(),
  citingThreadIds: z.array(z.string()),
  ranges: z.array(RangeUsageSchema),
});
export type FileUsage = z.infer<typeof FileUsageSchema>;

/** One thread as a memory source: how often sessions named it in rollout ids, and Codex's own counters. */
export const ThreadUsageSchema = z.object({
  threadId: z.string(),
  citedInBlocks: z.number().int(),
  /** The same blocks split by the root each block is attributed to: a v1 session citing a thread did not use its v2 summary. */
  citedInBlocksByVersion: z.object({ v1: z.number().int(), v2: z.number().int() }),
  lastCitedAt: UnixTimeSchema.nullable(),
  db: z.array(
    z.object({
      version: MemoryVersionSchema,
      usageCount: z.number().int().nullable(),
      lastUsage: UnixTimeSchema.nullable(),
    }),
  ),
});
export type ThreadUsage = z.infer<typeof ThreadUsageSchema>;

export const UsageReportSchema = z.object({
  kind: z.literal('memory_usage'),
  generatedAt: UnixTimeSchema,
  sessions: z.object({
    scanned: z.number().int(),
    withCitations: z.number().int(),
    citationBlocks: z.number().int(),
    unreadable: z.number().int(),
    /** Files served from the (path, mtime, size) cache instead of being read again. */
    cacheHits: z.number().int(),
  }),
  files: z.array(FileUsageSchema),
  threads: z.array(ThreadUsageSchema),
  problems: z.array(DbProblemSchema),
  elapsedMs: z.number(),
});
export type UsageReport = z.infer<typeof UsageReportSchema>;

export const SummaryHeaderSchema = z.object({
  threadId: z.string().nullable(),
  updatedAt: z.string().nullable(),
  rolloutPath: z.string().nullable(),
  cwd: z.string().nullable(),
  gitBranch: z.string().nullable(),
});
export type SummaryHeader = z.infer<typeof SummaryHeaderSchema>;

/** A memory_summary.md / MEMORY.md pointer followed to its rollout summary and on to the session. */
export const PointerResolutionSchema = z.object({
  version: MemoryVersionSchema,
  /** Normalised to `rollout_summaries/<file>`. */
  file: z.string(),
  exists: z.boolean(),
  header: SummaryHeaderSchema.nullable(),
  /** The summary's `thread_id:` header, else the caller's hint (the pointer's `thread_id=`). */
  threadId: z.string().nullable(),
  threadIdFrom: z.enum(['header', 'hint']).nullable(),
  sessionPath: z.string().nullable(),
  sessionVia: z.enum(['state-db', 'scan', 'summary-header']).nullable(),
  sessionExists: z.boolean(),
  /** `threads.rollout_path` as the catalog has it, even when that file is gone. */
  dbRolloutPath: z.string().nullable(),
  notes: z.array(z.string()),
});
export type PointerResolution = z.infer<typeof PointerResolutionSchema>;

export const CitedByEntrySchema = z.object({
  /** The citing session's thread. */
  threadId: z.string(),
  sessionPath: z.string(),
  time: UnixTimeSchema.nullable(),
  line: z.number().int(),
  /** `entry`: a `<citation_entries>` line naming the file; `rollout_id`: the block names the summary's thread. */
  via: z.enum(['entry', 'rollout_id']),
  lineStart: z.number().int().nullable(),
  lineEnd: z.number().int().nullable(),
  note: z.string().nullable(),
});
export type CitedByEntry = z.infer<typeof CitedByEntrySchema>;

export const NeverCitedFileSchema = z.object({
  path: z.string(),
  kind: FileKindSchema,
  size: z.number().int(),
  mtimeMs: z.number(),
  /** Rollout summaries: the `thread_id:` header, and that thread's `usage_count` in the version's DB. */
  threadId: z.string().nullable(),
  dbUsageCount: z.number().int().nullable(),
});
export type NeverCitedFile = z.infer<typeof NeverCitedFileSchema>;

export const NeverCitedReportSchema = z.object({
  version: MemoryVersionSchema,
  consideredKinds: z.array(FileKindSchema),
  considered: z.number().int(),
  files: z.array(NeverCitedFileSchema),
  problems: z.array(DbProblemSchema),
});
export type NeverCitedReport = z.infer<typeof NeverCitedReportSchema>;

/** A session behind a memory entry, found from its thread id (raw memories, a pointer's `thread_id=`). */
export const LineSessionSchema = z.object({
  threadId: z.string(),
  sessionPath: z.string().nullable(),
  exists: z.boolean(),
});
export type LineSession = z.infer<typeof LineSessionSchema>;

/**
 * One line of a memory file traced back: the entry it belongs to (a MEMORY.md task group, a summary entry, a raw
 * memory), the rollout summaries and sessions behind that entry, and the sessions that cited the line.
 */
export const LineProvenanceSchema = z.object({
  version: MemoryVersionSchema,
  path: z.string(),
  line: z.number().int().min(1),
  kind: FileKindSchema,
  /** The entry holding the line, or null (a file the doctor does not cut into entries, or a line between entries). */
  entry: z
    .object({ kind: z.string(), title: z.string(), line: z.number().int(), endLine: z.number().int(), cwd: z.string().nullable() })
    .nullable(),
  /** Each rollout summary the entry points at (or the file itself, when it is one), followed to its session. */
  rolloutSummaries: z.array(PointerResolutionSchema),
  /** Sessions named by thread id without a rollout summary in between (raw memories). */
  sessions: z.array(LineSessionSchema),
  /** Citations whose line range holds the line, or that cite the whole file (a rollout summary by its thread), newest first. */
  citedBy: z.array(CitedByEntrySchema),
  /** Citations of the file in all, so "not cited here" can be told from "never cited". */
  fileCitations: z.number().int().min(0),
  notes: z.array(z.string()),
});
export type LineProvenance = z.infer<typeof LineProvenanceSchema>;
