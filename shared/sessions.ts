// Session rollouts (`sessions/**/rollout-*.jsonl`): parsed shape, memory citations and the thread-id index.
import { z } from 'zod';
import { MemoryVersionSchema } from './domain';
import { UnixTimeSchema } from './health';

/** Codex's `MemoryCitationEntry { path, line_start, line_end, note }` (camelCase as the app-server sends it). */
export const MemoryCitationEntrySchema = z.object({
  path: z.string(),
  lineStart: z.number().int(),
  lineEnd: z.number().int(),
  note: z.string(),
});
export type MemoryCitationEntry = z.infer<typeof MemoryCitationEntrySchema>;

/** Codex's `MemoryCitation`; the app-server names the id list `threadIds` (core: `rollout_ids`). */
export const MemoryCitationSchema = z.object({
  entries: z.array(MemoryCitationEntrySchema),
  threadIds: z.array(z.string()),
});
export type MemoryCitation = z.infer<typeof MemoryCitationSchema>;

export const SessionDiagnosticSchema = z.object({
  severity: z.enum(['error', 'warning', 'info']),
  rule: z.string(),
  /** 1-based JSONL line; `endLine` > `line` when consecutive lines share the problem. */
  line: z.number().int(),
  endLine: z.number().int(),
  message: z.string(),
});
export type SessionDiagnostic = z.infer<typeof SessionDiagnosticSchema>;

/** One `<oai-mem-citation>` reading in an assistant message, as Codex would record it. */
export const SessionCitationSchema = MemoryCitationSchema.extend({
  line: z.number().int(),
  /** The JSONL line's `timestamp`, when it has one. */
  time: UnixTimeSchema.nullable(),
});
export type SessionCitation = z.infer<typeof SessionCitationSchema>;

export const AssistantMessageSchema = z.object({
  line: z.number().int(),
  /** Kept for the first messages only, and cut at a cap; `truncated` says when it was cut. */
  text: z.string().optional(),
  truncated: z.boolean().optional(),
});
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;

export const SessionRolloutSchema = z.object({
  kind: z.literal('session_rollout'),
  path: z.string(),
  /** `session_meta.payload.id`, else the UUID suffix of the file name. */
  threadId: z.string().nullable(),
  fileThreadId: z.string().nullable(),
  cwd: z.string().nullable(),
  startedAt: UnixTimeSchema.nullable(),
  source: z.string().optional(),
  cliVersion: z.string().optional(),
  lineCount: z.number().int(),
  bytes: z.number().int(),
  assistantMessages: z.array(AssistantMessageSchema),
  assistantMessageCount: z.number().int(),
  citations: z.array(SessionCitationSchema),
  diagnostics: z.array(SessionDiagnosticSchema),
});
export type SessionRollout = z.infer<typeof SessionRolloutSchema>;

/** Where a cited path is in this home: a memory root and the path inside it. */
export const CitedTargetSchema = z.object({ version: MemoryVersionSchema, path: z.string() });
export type CitedTarget = z.infer<typeof CitedTargetSchema>;

/** A citation entry with where core found it; `target` is null when no memory root of this home has the file. */
export const ResolvedCitationEntrySchema = MemoryCitationEntrySchema.extend({ target: CitedTargetSchema.nullable() });
export type ResolvedCitationEntry = z.infer<typeof ResolvedCitationEntrySchema>;

export const ResolvedSessionCitationSchema = SessionCitationSchema.extend({ entries: z.array(ResolvedCitationEntrySchema) });
export type ResolvedSessionCitation = z.infer<typeof ResolvedSessionCitationSchema>;

/** `provenance.session`: the session as parsed, each cited path resolved against this home's memory roots. */
export const SessionReadingSchema = SessionRolloutSchema.extend({ citations: z.array(ResolvedSessionCitationSchema) });
export type SessionReading = z.infer<typeof SessionReadingSchema>;

/** Where a thread's rollout is, and what is known about it without opening it twice. */
export const SessionIndexEntrySchema = z.object({
  threadId: z.string(),
  path: z.string(),
  archived: z.boolean(),
  cwd: z.string().nullable(),
  startedAt: UnixTimeSchema.nullable(),
  /** Where cwd/startedAt came from: the thread catalog, the file's session_meta line, or the file name only. */
  source: z.enum(['state-db', 'session-meta', 'file-name']),
});
export type SessionIndexEntry = z.infer<typeof SessionIndexEntrySchema>;

export const SessionIndexSchema = z.object({
  codexHome: z.string(),
  entries: z.array(SessionIndexEntrySchema),
  /** Files named like rollouts whose name carries no UUID, and folders that could not be read. */
  skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
  elapsedMs: z.number(),
});
export type SessionIndex = z.infer<typeof SessionIndexSchema>;
