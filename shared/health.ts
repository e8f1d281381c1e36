// The pipeline health report: what Codex's SQLite files say about memory extraction and consolidation.
import { z } from 'zod';
import { MemoriesConfigSchema, MemoryVersionSchema } from './domain';

/** A moment as Codex stores it (unix seconds, UTC) plus the same moment as an ISO string for people. */
export const UnixTimeSchema = z.object({
  seconds: z.number().int(),
  iso: z.string(),
});
export type UnixTime = z.infer<typeof UnixTimeSchema>;

export const DbNameSchema = z.enum(['state', 'memories_v1', 'memories_v2']);
export type DbName = z.infer<typeof DbNameSchema>;

export const DbProblemKindSchema = z.enum(['missing', 'locked', 'corrupt', 'schema', 'unreadable']);
export type DbProblemKind = z.infer<typeof DbProblemKindSchema>;

/** One thing wrong with one of Codex's SQLite files; never thrown, always reported. */
export const DbProblemSchema = z.object({
  db: DbNameSchema,
  path: z.string(),
  kind: DbProblemKindSchema,
  message: z.string(),
  hint: z.string(),
});
export type DbProblem = z.infer<typeof DbProblemSchema>;

/** How a DB was read: straight from the file, or from an in-memory snapshot (WAL file at rest, see codex-db/open-db.ts). */
export const DbReadSchema = z.object({
  db: DbNameSchema,
  path: z.string(),
  exists: z.boolean(),
  opened: z.boolean(),
  mode: z.enum(['direct', 'snapshot']).nullable(),
  journalMode: z.enum(['wal', 'rollback']).nullable(),
});
export type DbRead = z.infer<typeof DbReadSchema>;

export const JobStatusCountsSchema = z.object({
  pending: z.number().int(),
  running: z.number().int(),
  done: z.number().int(),
  error: z.number().int(),
  /** Any status string Codex does not write today. */
  other: z.number().int(),
});
export type JobStatusCounts = z.infer<typeof JobStatusCountsSchema>;

/**
 * Whether Codex will try a stage-1 job again, by `try_claim_stage1_job`'s conditions:
 * `backoff` (retry_at in the future), `due` (retry allowed now), `exhausted` (no retries left),
 * `new-input` (the thread changed since, which resets retries), `lease-expired` (a running job whose worker vanished).
 */
export const Stage1RetryStateSchema = z.enum(['backoff', 'due', 'exhausted', 'new-input', 'lease-expired']);
export type Stage1RetryState = z.infer<typeof Stage1RetryStateSchema>;

export const Stage1JobIssueSchema = z.object({
  threadId: z.string(),
  status: z.string(),
  lastError: z.string().nullable(),
  retryAt: UnixTimeSchema.nullable(),
  retryRemaining: z.number().int().nullable(),
  startedAt: UnixTimeSchema.nullable(),
  finishedAt: UnixTimeSchema.nullable(),
  leaseUntil: UnixTimeSchema.nullable(),
  inputWatermark: UnixTimeSchema.nullable(),
  retryState: Stage1RetryStateSchema,
  /** From `state_5.sqlite` threads, when the thread is in the catalog. */
  rolloutPath: z.string().optional(),
  cwd: z.string().optional(),
  memoryMode: z.string().optional(),
});
export type Stage1JobIssue = z.infer<typeof Stage1JobIssueSchema>;

export const Stage1JobsSchema = z.object({
  total: z.number().int(),
  byStatus: JobStatusCountsSchema,
  /** Running rows whose lease is still live (at most 8 run at once in Codex). */
  runningLive: z.number().int(),
  /** Failed, retrying or abandoned jobs, newest first, capped at `issuesCap`. */
  issues: z.array(Stage1JobIssueSchema),
  issuesTotal: z.number().int(),
  issuesCap: z.number().int(),
});
export type Stage1Jobs = z.infer<typeof Stage1JobsSchema>;

export const GlobalClaimOutcomeSchema = z.enum(['claimable', 'skipped_retry_unavailable', 'skipped_running', 'skipped_cooldown']);
export type GlobalClaimOutcome = z.infer<typeof GlobalClaimOutcomeSchema>;

/** The singleton `memory_consolidate_global` / `global` row, with its lease and cooldown worked out. */
export const GlobalJobSchema = z.object({
  status: z.string(),
  workerId: z.string().nullable(),
  ownershipTokenPresent: z.boolean(),
  leaseUntil: UnixTimeSchema.nullable(),
  leaseLive: z.boolean(),
  startedAt: UnixTimeSchema.nullable(),
  finishedAt: UnixTimeSchema.nullable(),
  lastError: z.string().nullable(),
  retryAt: UnixTimeSchema.nullable(),
  retryBackoffActive: z.boolean(),
  retryRemaining: z.number().int().nullable(),
  inputWatermark: UnixTimeSchema.nullable(),
  lastSuccessWatermark: UnixTimeSchema.nullable(),
  /** finished_at + 6 h when last_error is NULL (Codex checks no status here, only last_error and finished_at). */
  cooldownEndsAt: UnixTimeSchema.nullable(),
  cooldownActive: z.boolean(),
});
export type GlobalJob = z.infer<typeof GlobalJobSchema>;

/** `try_claim_global_phase2_job` evaluated now, read-only: could a Phase 2 run (Codex's or ours) take the lock? */
export const GlobalClaimSchema = z.object({
  claimableNow: z.boolean(),
  outcome: GlobalClaimOutcomeSchema,
  reason: z.string(),
  /** When the blocking condition ends (lease, backoff or cooldown), if it ends by itself. */
  nextClaimAt: UnixTimeSchema.nullable(),
});
export type GlobalClaim = z.infer<typeof GlobalClaimSchema>;

export const OutputStatsSchema = z.object({
  total: z.number().int(),
  selectedForPhase2: z.number().int(),
  withUsage: z.number().int(),
  neverUsed: z.number().int(),
  /** COALESCE(last_usage, source_updated_at) older than max_unused_days: left out of the next Phase 2 selection. */
  staleByMaxUnusedDays: z.number().int(),
  /** Stale and not in the last baseline: Codex deletes these at startup, 200 at a time. */
  prunable: z.number().int(),
  /** `length(trim(x)) = 0`, SQLite's trim (spaces only), as Codex's selection query tests it. */
  blankRawMemory: z.number().int(),
  blankRolloutSummary: z.number().int(),
  blankBoth: z.number().int(),
  /** Rows whose thread is not `enabled` in the catalog (or not there at all): never selected. */
  notEnabledThread: z.number().int(),
  /** Non-blank, fresh, enabled: what the next Phase 2 may choose from; `nextSelectionSize` caps it by the config. */
  eligibleForPhase2: z.number().int(),
  nextSelectionSize: z.number().int(),
  unusedCutoff: UnixTimeSchema,
  newestSourceUpdatedAt: UnixTimeSchema.nullable(),
  newestUsage: UnixTimeSchema.nullable(),
});
export type OutputStats = z.infer<typeof OutputStatsSchema>;

export const ThreadStatsSchema = z.object({
  total: z.number().int(),
  byMode: z.object({ enabled: z.number().int(), disabled: z.number().int(), polluted: z.number().int(), other: z.number().int() }),
  archived: z.number().int(),
  /**
   * Interactive sessions (source `cli` or `vscode`), enabled and not archived, by where their last update falls
   * against [now - max_rollout_age_days, now - min_rollout_idle_hours]. `inWindow` is what the startup scan looks
   * at; whether a thread is then claimed depends on the version's stage-1 state (`VersionHealth.phase1`).
   */
  phase1Window: z.object({ inWindow: z.number().int(), tooOld: z.number().int(), tooRecent: z.number().int() }),
  /** Threads Codex never extracts: `codex exec` runs, sub-agents and internal sessions (any other `source`). */
  notInteractive: z.number().int(),
});

/** What Codex's phase 1 would claim for one version at the next session start. */
export const Phase1ClaimsSchema = z.object({
  /** Threads in the window that `try_claim_stage1_job` would claim now. */
  eligible: z.number().int(),
  /** min(eligible, max_rollouts_per_startup): what one session start takes. */
  nextStartClaims: z.number().int(),
  perStartup: z.number().int(),
  skipped: z.object({
    upToDate: z.number().int(),
    retryExhausted: z.number().int(),
    retryBackoff: z.number().int(),
    running: z.number().int(),
  }),
  /** Eligible thread ids in Codex's order (newest update first), at most 50. */
  threadIds: z.array(z.string()),
});
export type Phase1Claims = z.infer<typeof Phase1ClaimsSchema>;
export type ThreadStats = z.infer<typeof ThreadStatsSchema>;

export const VersionHealthSchema = z.object({
  version: MemoryVersionSchema,
  /** Codex runs the pipeline for this version (the configured one, or both with dual_write). */
  active: z.boolean(),
  /** Where stage1_outputs/jobs were found: the version's memory DB, `state_5.sqlite` (older builds), or nowhere. */
  tablesIn: z.enum(['memory-db', 'state-db']).nullable(),
  db: DbReadSchema,
  /** Columns the code reads that this schema lacks (older Codex builds); their values read as null. */
  missingColumns: z.array(z.string()),
  stage1Jobs: Stage1JobsSchema.nullable(),
  globalJob: GlobalJobSchema.nullable(),
  globalClaim: GlobalClaimSchema.nullable(),
  outputs: OutputStatsSchema.nullable(),
  /** Phase 1 at the next session start, by Codex's claim rules (null without a thread catalog). */
  phase1: Phase1ClaimsSchema.nullable(),
});
export type VersionHealth = z.infer<typeof VersionHealthSchema>;

/** One sqlx migration record: its number and what it is called. */
export const MigrationRefSchema = z.object({ version: z.number().int(), description: z.string() });
export type MigrationRef = z.infer<typeof MigrationRefSchema>;

/** One of Codex's SQLite files: its sqlx migration records against the releases Memory Studio verified. */
export const DbMigrationsSchema = z.object({
  /** Codex's file name: `state_5.sqlite`, `memories_1.sqlite`, `thread_history_1.sqlite`, … */
  file: z.string(),
  /** Which DB Memory Studio reads this is; null for Codex's other files (opened only for their migration records). */
  db: DbNameSchema.nullable(),
  path: z.string(),
  applied: z.number().int(),
  latest: z.number().int().nullable(),
  /** The newest migration the reference Codex applies to this file (null: the reference does not create it). */
  knownLatest: z.number().int().nullable(),
  /** Applied migrations no verified release has (or has with another checksum): a newer Codex migrated this file. */
  unknown: z.array(MigrationRefSchema),
  failed: z.array(z.number().int()),
  /** Verified releases whose migrations of this file are exactly these (numbers and checksums), oldest first. */
  matches: z.array(z.string()),
  /** Why the file's records could not be read; null when they were. */
  problem: z.string().nullable(),
});
export type DbMigrations = z.infer<typeof DbMigrationsSchema>;

/** A `*.sqlite` file beside Codex's that no verified Codex creates (another release's DB, a copy). */
export const OtherDbFileSchema = z.object({ name: z.string(), path: z.string(), bytes: z.number().int(), note: z.string() });
export type OtherDbFile = z.infer<typeof OtherDbFileSchema>;

/**
 * How the home compares with the releases Memory Studio verified (docs/compat/):
 * `verified`: its databases are as the reference (or a release verified with it) leaves them;
 * `verified-older`: as an older verified release leaves them, which Memory Studio reads as well;
 * `unverified-release`: the databases match a verified release, but the newest `cli_version` has no receipt;
 * `unknown-migrations`: a DB carries migrations no verified release has: a newer Codex wrote it;
 * `unmatched`: no verified release leaves every DB so (an older Codex, or files of different releases).
 */
export const CodexReleaseStatusSchema = z.enum(['verified', 'verified-older', 'unverified-release', 'unknown-migrations', 'unmatched']);
export type CodexReleaseStatus = z.infer<typeof CodexReleaseStatusSchema>;

/** Which Codex wrote the home, as far as its files tell. */
export const CodexReleaseSchema = z.object({
  /** The release Memory Studio's readings are checked against (the interop suite's default Codex). */
  reference: z.string(),
  /** Every release with a receipt that says verified, oldest first. */
  verified: z.array(z.string()),
  /** The newest `threads.cli_version`: the Codex release that last ran a session here. */
  newestSeen: z.string().nullable(),
  /** Whether newestSeen has a receipt; null without newestSeen. */
  newestSeenVerified: z.boolean().nullable(),
  /** Every Codex DB file found, the ones Memory Studio reads first. */
  migrations: z.array(DbMigrationsSchema),
  /** Verified releases whose migrations equal the home's in every DB file read, oldest first. */
  writtenBy: z.array(z.string()),
  /** writtenBy as people read it: `0.169.0–0.169.1`; null when empty. */
  writtenByLabel: z.string().nullable(),
  status: CodexReleaseStatusSchema,
  /** The receipt that covers this home (`docs/compat/<version>.md`), or null. */
  receipt: z.string().nullable(),
  /** One or two sentences: which Codex wrote the home and whether Memory Studio verified it. */
  summary: z.string(),
  /** What is unknown and what to do about it; null when nothing is. */
  warning: z.string().nullable(),
  /** True when a DB carries migrations no verified release has: read what is known, say so. */
  newerThanReference: z.boolean(),
  otherDbFiles: z.array(OtherDbFileSchema),
});
export type CodexRelease = z.infer<typeof CodexReleaseSchema>;

export const HealthReportSchema = z.object({
  kind: z.literal('pipeline_health'),
  now: UnixTimeSchema,
  codexHome: z.string(),
  sqliteHome: z.string(),
  config: z.object({
    featureMemories: z.boolean().nullable(),
    /** Effective values, clamps already applied (home.config.memories). */
    memories: MemoriesConfigSchema,
    activeVersions: z.array(MemoryVersionSchema),
  }),
  stateDb: DbReadSchema,
  threads: ThreadStatsSchema.nullable(),
  versions: z.array(VersionHealthSchema),
  codex: CodexReleaseSchema,
  problems: z.array(DbProblemSchema),
  elapsedMs: z.number(),
});
export type HealthReport = z.infer<typeof HealthReportSchema>;
