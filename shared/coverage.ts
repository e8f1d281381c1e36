// The coverage ledger: every session in Codex's thread catalog and how far the memory pipeline took it.
import { z } from 'zod';
import { MemoryVersionSchema } from './domain';
import { DbProblemSchema, UnixTimeSchema } from './health';

/**
 * Where one session stands, furthest stage first when several apply:
 * - `not-eligible`: Codex's phase 1 will not pick it up as it is now (`reason` says why);
 * - `waiting`: inside phase 1's window, not yet extracted, claimable at a session start (`queue` says when);
 * - `extracting`: a stage-1 job runs under a live lease;
 * - `failed`: the last extraction failed and Codex will retry (`job.retryState` says when);
 * - `exhausted`: the extraction failed with no retries left: Codex never tries again unless the session changes;
 * - `extracted`: a stage-1 output exists, not (yet) part of a consolidation;
 * - `selected`: its stage-1 output was part of the last successful consolidation (`selected_for_phase2 = 1`).
 */
export const CoverageStageSchema = z.enum(['not-eligible', 'waiting', 'extracting', 'failed', 'exhausted', 'extracted', 'selected']);
export type CoverageStage = z.infer<typeof CoverageStageSchema>;

/**
 * Why phase 1 does not pick a session up (`claim_stage1_jobs_for_startup`'s filter):
 * - `source`: not an interactive session (`exec`, a sub-agent, Atlas or ChatGPT: `source` names it), or one with no user
 *   message (an empty `preview`: Codex's thread queries, its claim's included, list only sessions with one);
 * - `memory-disabled` / `polluted`: the thread's `memory_mode`;
 * - `archived`;
 * - `too-recent`: idle for less than `min_rollout_idle_hours` (eligible from `eligibleAt`);
 * - `too-old`: last active before `max_rollout_age_days` (never extracted now);
 * - `no-time`: the row has no usable `updated_at`.
 */
export const CoverageReasonSchema = z.enum(['source', 'memory-disabled', 'polluted', 'archived', 'too-recent', 'too-old', 'no-time']);
export type CoverageReason = z.infer<typeof CoverageReasonSchema>;

/** Whether a failed stage-1 job is retried, by `try_claim_stage1_job`'s conditions (as health's `Stage1RetryState`). */
export const CoverageRetrySchema = z.enum(['backoff', 'due', 'exhausted', 'new-input', 'lease-expired']);

export const CoverageJobSchema = z.object({
  status: z.string(),
  lastError: z.string().nullable(),
  retryAt: UnixTimeSchema.nullable(),
  retryRemaining: z.number().int().nullable(),
  leaseUntil: UnixTimeSchema.nullable(),
  finishedAt: UnixTimeSchema.nullable(),
  retryState: CoverageRetrySchema.nullable(),
});
export type CoverageJob = z.infer<typeof CoverageJobSchema>;

export const CoverageOutputSchema = z.object({
  sourceUpdatedAt: UnixTimeSchema.nullable(),
  generatedAt: UnixTimeSchema.nullable(),
  rolloutSlug: z.string().nullable(),
  selectedForPhase2: z.boolean(),
  /** `usage_count`: how many times sessions cited this output (Codex counts citations). */
  usageCount: z.number().int(),
  lastUsage: UnixTimeSchema.nullable(),
});
export type CoverageOutput = z.infer<typeof CoverageOutputSchema>;

/** Where the session shows in the memory root: its rollout summary file and the files whose entries name it. */
export const CoveragePresenceSchema = z.object({
  /** `rollout_summaries/<stem>.md` relative to the root, or null when the root has none for this session. */
  rolloutSummary: z.string().nullable(),
  /** Root-relative files (MEMORY.md, memory_summary.md, skills) with the number of lines that name the session. */
  namedIn: z.array(z.object({ relPath: z.string(), lines: z.number().int() })),
});
export type CoveragePresence = z.infer<typeof CoveragePresenceSchema>;

export const CoverageThreadSchema = z.object({
  threadId: z.string(),
  /** `threads.source` as Codex stores it (`cli`, `exec`, `{"custom":"atlas"}`, …) and a short label for people. */
  source: z.string().nullable(),
  sourceLabel: z.string(),
  cwd: z.string().nullable(),
  title: z.string().nullable(),
  rolloutPath: z.string().nullable(),
  memoryMode: z.string(),
  updatedAt: UnixTimeSchema.nullable(),
  stage: CoverageStageSchema,
  /**
   * Not eligible: why phase 1 leaves the session out. Failed or exhausted: why Codex will not retry it (phase 1 no
   * longer picks it up), or null when it will. Null for every other stage.
   */
  reason: CoverageReasonSchema.nullable(),
  /** One sentence for people: what happened and what happens next (e.g. "Codex retries after 14:02 UTC (2 tries left)."). */
  detail: z.string(),
  /** When phase 1's window opens (too recent) or closes (the session ages out), while it matters. */
  eligibleAt: UnixTimeSchema.nullable(),
  agesOutAt: UnixTimeSchema.nullable(),
  job: CoverageJobSchema.nullable(),
  output: CoverageOutputSchema.nullable(),
  presence: CoveragePresenceSchema,
  /** Which repairs Memory Studio can propose for this session (`retry`: make a failed or exhausted extraction claimable). */
  repairs: z.array(z.enum(['retry'])),
});
export type CoverageThread = z.infer<typeof CoverageThreadSchema>;

export const CoverageTotalsSchema = z.record(CoverageStageSchema, z.number().int());

/** The global consolidation job of the version, and whether it is stuck in a way Memory Studio can repair. */
export const CoverageConsolidationSchema = z.object({
  status: z.string().nullable(),
  /** `running-dead`: running with an expired lease; `backoff`: waits for retry_at; `cooldown`: the 6 h after a success; `claimable`; `absent`. */
  state: z.enum(['absent', 'claimable', 'running', 'running-dead', 'backoff', 'cooldown', 'done']),
  detail: z.string(),
  leaseUntil: UnixTimeSchema.nullable(),
  retryAt: UnixTimeSchema.nullable(),
  finishedAt: UnixTimeSchema.nullable(),
  lastError: z.string().nullable(),
  reclaimable: z.boolean(),
});
export type CoverageConsolidation = z.infer<typeof CoverageConsolidationSchema>;

export const CoverageInputSchema = z.object({
  version: MemoryVersionSchema.optional(),
  /** Only sessions active in the last DAYS days (by `updated_at`). */
  sinceDays: z.number().int().positive().max(36_500).optional(),
});
export type CoverageInput = z.infer<typeof CoverageInputSchema>;

export const CoverageReportSchema = z.object({
  version: MemoryVersionSchema,
  generatedAt: UnixTimeSchema,
  /** The config values the stages were judged with. */
  window: z.object({
    maxRolloutAgeDays: z.number().int(),
    minRolloutIdleHours: z.number().int(),
    maxRolloutsPerStartup: z.number().int(),
  }),
  sinceDays: z.number().int().nullable(),
  totals: CoverageTotalsSchema,
  /** Not-eligible sessions by reason. */
  notEligible: z.record(CoverageReasonSchema, z.number().int()),
  /** Sessions that are waiting or failed and whose window closes within seven days, soonest first (ids). */
  agingOut: z.array(z.string()),
  threads: z.array(CoverageThreadSchema),
  consolidation: CoverageConsolidationSchema,
  problems: z.array(DbProblemSchema),
});
export type CoverageReport = z.infer<typeof CoverageReportSchema>;
