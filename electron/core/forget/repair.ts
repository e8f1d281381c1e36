// Repairs of Codex's memory pipeline as reviewed DB changes: a failed or exhausted extraction made claimable again, and
// a stuck global consolidation job reclaimed. Each is one compare-and-swap of one `jobs` row: planned read-only here,
// applied by the Apply engine (apply-db.ts), recorded in history and reverted by the same change the other way round.
import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import type { z } from 'zod';
import type * as ZodModule from 'zod';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { DbChange, DbChangeInput } from '../../../shared/review';
import { GLOBAL_JOB_KEY, INTERACTIVE_SESSION_SOURCES, JOB_KINDS, memoryDbName, PHASE2_COOLDOWN_SECONDS } from '../codex/constants';
import { openCodexDb } from '../codex-db';
import { notEligibleReason, type ClaimThread } from '../codex-db/phase1-rules';
import { firstLine as firstErrorLine, utc as utcTime } from '../coverage/words';
import { codexDbFailure, dbProblemFailure } from '../codex-db/db-failure';
import { intOrNull, stringOrNull } from '../codex-db/time';
import { StudioFailure } from '../platform/errors';
import { memoryDbPath, shortThreadId, stateDbPath } from './plan';
import { isRepairChange, REPAIR_KINDS } from './kinds';

/** Codex's `DEFAULT_RETRY_REMAINING` (`codex-rs/state/src/runtime/memories.rs`): what a session whose input advanced gets. */
export const CODEX_DEFAULT_RETRIES = 3;

/** The `jobs` columns a repair compares and sets (every column Codex's claims read or write). */
const JOB_COLUMNS = [
  'status',
  'worker_id',
  'ownership_token',
  'started_at',
  'finished_at',
  'lease_until',
  'retry_at',
  'retry_remaining',
  'last_error',
  'input_watermark',
  'last_success_watermark',
] as const;

/** The row and params checks, built on first use: zod takes ~50 ms to load, which an Apply without a repair skips. */
function makeSchemas(zod: typeof z) {
  const Int = zod.number().int().nullable();
  const Text = zod.string().max(100_000).nullable();
  const JobRowSchema = zod.object({
    status: zod.string().max(100),
    worker_id: Text,
    ownership_token: Text,
    started_at: Int,
    finished_at: Int,
    lease_until: Int,
    retry_at: Int,
    retry_remaining: Int,
    last_error: Text,
    input_watermark: Int,
    last_success_watermark: Int,
  });
  /** The stored params of a `repair.set-job` change: which row, what it must still be, and what it becomes. */
  const RepairParamsSchema = zod.object({
    kind: zod.enum([JOB_KINDS.stage1, JOB_KINDS.global]),
    jobKey: zod.string().min(1).max(200),
    purpose: zod.enum(['retry', 'reclaim', 'revert']),
    before: JobRowSchema,
    after: JobRowSchema,
  });
  return { JobRowSchema, RepairParamsSchema };
}
type Schemas = ReturnType<typeof makeSchemas>;
let schemas: Schemas | null = null;
function repairSchemas(): Schemas {
  return (schemas ??= makeSchemas((createRequire(__filename)('zod') as typeof ZodModule).z));
}
export type JobRow = z.infer<Schemas['JobRowSchema']>;
export type RepairParams = z.infer<Schemas['RepairParamsSchema']>;

export { isRepairChange, REPAIR_KINDS };

function readJob(db: Database.Database, kind: string, key: string): JobRow | null {
  const row = db.prepare(`SELECT ${JOB_COLUMNS.join(', ')} FROM jobs WHERE kind = ? AND job_key = ?`).get(kind, key) as
    Record<string, unknown> | undefined;
  if (!row) return null;
  return {
    status: String(row.status),
    worker_id: stringOrNull(row.worker_id),
    ownership_token: stringOrNull(row.ownership_token),
    started_at: intOrNull(row.started_at),
    finished_at: intOrNull(row.finished_at),
    lease_until: intOrNull(row.lease_until),
    retry_at: intOrNull(row.retry_at),
    retry_remaining: intOrNull(row.retry_remaining),
    last_error: stringOrNull(row.last_error),
    input_watermark: intOrNull(row.input_watermark),
    last_success_watermark: intOrNull(row.last_success_watermark),
  };
}

/** A time as people read it, or `none`. */
function utc(sec: number | null): string {
  return sec === null ? 'none' : utcTime(sec);
}

function shown(column: keyof JobRow, value: JobRow[keyof JobRow]): string {
  if (value === null) return 'none';
  // Every number but the retry count is a unix time (the watermarks are the sessions' update times).
  if (typeof value === 'number') return column === 'retry_remaining' ? String(value) : utc(value);
  const text = String(value);
  return column === 'status' ? `"${text}"` : text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/** `status "error" → "pending", retry_at 14:02 UTC → none`: every column the change sets, before → after. */
export function describeColumns(before: JobRow, after: JobRow): string {
  return JOB_COLUMNS.filter((c) => before[c] !== after[c])
    .map((c) => `${c} ${shown(c, before[c])} → ${shown(c, after[c])}`)
    .join(', ');
}

/** Runs `read` on one version's memory DB, read only; NotFound when it does not exist. */
async function withMemoryDb<T>(home: HomeInfo, version: MemoryVersion, read: (db: Database.Database) => T): Promise<T> {
  const path = memoryDbPath(home, version);
  const opened = await openCodexDb(memoryDbName(version), path);
  if (!opened.ok) {
    if (opened.problem.kind === 'missing')
      throw new StudioFailure('NotFound', `Codex has no ${version} memory DB in ${home.sqliteHome}, so there is no job to repair.`, {
        hint: 'Codex creates it the first time a session starts with that memory version.',
      });
    throw dbProblemFailure(opened.problem, `Cannot read the ${version} memory DB`);
  }
  try {
    return read(opened.handle.db);
  } catch (error) {
    if (error instanceof StudioFailure) throw error;
    throw codexDbFailure(
      opened.handle.read.db,
      opened.handle.read.path,
      error,
      `Memory Studio cannot read the ${version} memory DB`,
      'Nothing was changed.',
    );
  } finally {
    opened.handle.close();
  }
}

async function threadFacts(home: HomeInfo, threadId: string): Promise<ClaimThread> {
  const opened = await openCodexDb('state', stateDbPath(home));
  if (!opened.ok) throw dbProblemFailure(opened.problem, `Cannot look up session ${threadId}`);
  try {
    const columns = new Set((opened.handle.db.prepare('PRAGMA table_info(threads)').all() as { name: string }[]).map((c) => c.name));
    const ms = columns.has('updated_at_ms') ? 'updated_at_ms' : 'NULL';
    const preview = columns.has('preview') ? 'preview' : 'NULL';
    // The whole id, or the short form the ledger prints (`01a24116…b0dc`), or a prefix, when it names one session.
    const [head = '', tail = ''] = threadId.split('…');
    const escaped = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
    const rows = opened.handle.db
      .prepare(
        `SELECT id, source, memory_mode, archived, updated_at, ${ms} AS updated_at_ms, ${preview} AS preview FROM threads
         WHERE id = ? OR id LIKE ? ESCAPE '\\' ORDER BY id = ? DESC LIMIT 3`,
      )
      .all(threadId, `${escaped(head)}%${escaped(tail)}`, threadId) as Record<string, unknown>[];
    const row = rows[0]?.id === threadId || rows.length === 1 ? rows[0] : undefined;
    if (!row)
      throw new StudioFailure(
        rows.length > 1 ? 'Invalid' : 'NotFound',
        rows.length > 1
          ? `More than one session of ${home.codexHome} starts with ${threadId}.`
          : `Codex knows no session ${threadId} in ${home.codexHome}.`,
        { hint: 'Give its whole id: "coverage --json" lists every session with its id.' },
      );
    const updatedMs = intOrNull(row.updated_at_ms);
    return {
      id: String(row.id),
      source: stringOrNull(row.source),
      memoryMode: stringOrNull(row.memory_mode) ?? 'enabled',
      archived: (intOrNull(row.archived) ?? 0) !== 0,
      updatedAt: updatedMs !== null ? Math.floor(updatedMs / 1000) : intOrNull(row.updated_at),
      hasMessage: preview === 'NULL' ? null : stringOrNull(row.preview) !== '',
    };
  } catch (error) {
    if (error instanceof StudioFailure) throw error;
    throw codexDbFailure('state', stateDbPath(home), error, `Memory Studio cannot look up session ${threadId}`, 'Nothing was changed.');
  } finally {
    opened.handle.close();
  }
}

/**
 * Why Codex's phase 1 would still not pick the session up after a retry (Codex's own filter, phase1-rules.ts, as the
 * ledger judges it); null when it would. A session still too recent is fine: it enters the window later.
 */
function notClaimable(home: HomeInfo, thread: ClaimThread, nowSec: number): string | null {
  const config = home.config.memories;
  switch (notEligibleReason(thread, config, nowSec)) {
    case null:
    case 'too-recent':
      return null;
    case 'source':
      return thread.hasMessage === false
        ? 'it has no user message, and Codex lists only sessions with one'
        : `it is not an interactive session (source ${thread.source ?? 'unknown'}), and Codex extracts only ${INTERACTIVE_SESSION_SOURCES.join(' and ')} sessions`;
    case 'polluted':
    case 'memory-disabled':
      return `its memory mode is "${thread.memoryMode}"`;
    case 'archived':
      return 'it is archived';
    case 'no-time':
      return 'Codex recorded no time of its last activity';
    case 'too-old':
      return `it was last active ${utc(thread.updatedAt)}, more than max_rollout_age_days (${config.maxRolloutAgeDays}) ago`;
  }
}

export interface RepairPlan {
  title: string;
  change: DbChangeInput;
}

/**
 * `coverage --retry`: a failed extraction that waits for its back-off, or has no retries left, made claimable now,
 * exactly as Codex's own claim treats a session whose input advanced: `retry_remaining` back to 3, `retry_at` cleared.
 */
export async function planRetry(home: HomeInfo, version: MemoryVersion, threadId: string, nowSec: number): Promise<RepairPlan> {
  const thread = await threadFacts(home, threadId);
  const short = shortThreadId(thread.id);
  const blocked = notClaimable(home, thread, nowSec);
  if (blocked)
    throw new StudioFailure(
      'Invalid',
      `A retry would not help session ${short}: Codex's phase 1 will not extract it, because ${blocked}.`,
      {
        hint: 'Nothing was changed.',
      },
    );
  const before = await withMemoryDb(home, version, (db) => readJob(db, JOB_KINDS.stage1, thread.id));
  if (!before)
    throw new StudioFailure('Invalid', `Session ${short} has no ${version} extraction job: there is no failure to retry.`, {
      hint: 'Codex claims it at a session start while it is inside the age window.',
    });
  if (before.status === 'running' && (before.lease_until ?? 0) > nowSec)
    throw new StudioFailure('Locked', `Codex is extracting session ${short} right now (its lease runs until ${utc(before.lease_until)}).`, {
      hint: 'Nothing was changed. Look again when it has finished.',
    });
  const exhausted = (before.retry_remaining ?? 0) <= 0;
  const backoff = before.retry_at !== null && before.retry_at > nowSec;
  const advanced = thread.updatedAt !== null && thread.updatedAt > (before.input_watermark ?? -1);
  if (!exhausted && !backoff)
    throw new StudioFailure(
      'Invalid',
      `Session ${short}'s ${version} extraction is not held back: Codex claims it at a session start as it is.`,
      {
        hint: 'Nothing was changed.',
      },
    );
  if (advanced)
    throw new StudioFailure(
      'Invalid',
      `Session ${short} changed since its last extraction, which resets its retries: Codex claims it at a session start as it is.`,
      {
        hint: 'Nothing was changed.',
      },
    );
  const after: JobRow = { ...before, retry_remaining: Math.max(before.retry_remaining ?? 0, CODEX_DEFAULT_RETRIES), retry_at: null };
  const why = exhausted ? 'it has no retries left' : `it waits for its back-off until ${utc(before.retry_at)}`;
  return {
    title: `Retry extracting session ${short} (${version})`,
    change: {
      db: memoryDbName(version),
      sqlKind: REPAIR_KINDS.setJob,
      description: `Let Codex extract session ${short} again at a session start (${why}; last error: ${firstLine(before.last_error)}): ${describeColumns(before, after)}, as Codex's own claim does when a session changes.`,
      params: { kind: JOB_KINDS.stage1, jobKey: thread.id, purpose: 'retry', before, after } satisfies RepairParams,
    },
  };
}

function firstLine(text: string | null): string {
  return text === null ? 'none' : firstErrorLine(text);
}

/** Whether the global job is stuck in a way a reclaim mends: running under a lease that ended, or waiting for a back-off. */
export function globalStuck(row: JobRow, nowSec: number): 'running-dead' | 'backoff' | null {
  if (row.status === 'running') return row.lease_until === null || row.lease_until <= nowSec ? 'running-dead' : null;
  if (row.retry_at !== null && row.retry_at > nowSec) return 'backoff';
  return null;
}

/**
 * `coverage --reclaim`: the global consolidation job left `running` by a worker whose lease ended, or held back by a
 * retry time, set `pending` with no holder and no back-off, as Codex's own enqueue leaves it, so the next session start
 * claims it (the 6 h cooldown after a success is Codex's pacing and is kept).
 */
export async function planReclaim(home: HomeInfo, version: MemoryVersion, nowSec: number): Promise<RepairPlan> {
  const before = await withMemoryDb(home, version, (db) => readJob(db, JOB_KINDS.global, GLOBAL_JOB_KEY));
  if (!before)
    throw new StudioFailure('Invalid', `Codex has no ${version} consolidation job yet: there is nothing to reclaim.`, {
      hint: 'Codex creates it when it first consolidates.',
    });
  const stuck = globalStuck(before, nowSec);
  if (!stuck) {
    const live = before.status === 'running';
    throw new StudioFailure(
      live ? 'Locked' : 'Invalid',
      live
        ? `Codex's ${version} consolidation is running under a live lease (until ${utc(before.lease_until)}): it is not stuck.`
        : `Codex's ${version} consolidation job is "${before.status}" and not held back: nothing to reclaim.`,
      { hint: 'Nothing was changed.' },
    );
  }
  const after: JobRow = {
    ...before,
    status: 'pending',
    worker_id: null,
    ownership_token: null,
    lease_until: null,
    retry_at: null,
    retry_remaining: Math.max(before.retry_remaining ?? 0, CODEX_DEFAULT_RETRIES),
  };
  const why =
    stuck === 'running-dead'
      ? `it is "running" but its worker's lease ended ${utc(before.lease_until)}`
      : `it waits for a retry time ${utc(before.retry_at)}${before.last_error ? ` after "${firstLine(before.last_error)}"` : ''}`;
  const cooldown =
    before.last_error === null && before.finished_at !== null && before.finished_at > nowSec - PHASE2_COOLDOWN_SECONDS
      ? ` Codex still waits for its 6-hour pause after the last success, until ${utc(before.finished_at + PHASE2_COOLDOWN_SECONDS)}.`
      : '';
  return {
    title: `Reclaim Codex's ${version} consolidation job`,
    change: {
      db: memoryDbName(version),
      sqlKind: REPAIR_KINDS.setJob,
      description: `Let Codex consolidate ${version} memories at its next session start (${why}): ${describeColumns(before, after)}.${cooldown}`,
      params: { kind: JOB_KINDS.global, jobKey: GLOBAL_JOB_KEY, purpose: 'reclaim', before, after } satisfies RepairParams,
    },
  };
}

/** The change that undoes an applied repair: the same row set back, guarded on what the repair left. */
export function inverseRepair(change: DbChange): DbChangeInput {
  const params = repairSchemas().RepairParamsSchema.parse(change.params);
  const what =
    params.kind === JOB_KINDS.global
      ? `Codex's ${change.version ?? ''} consolidation job`
      : `session ${shortThreadId(params.jobKey)}'s ${change.version ?? ''} extraction job`;
  return {
    db: change.db,
    sqlKind: REPAIR_KINDS.setJob,
    description: `Put ${what} back as it was before the repair: ${describeColumns(params.after, params.before)}.`,
    params: { ...params, purpose: 'revert', before: params.after, after: params.before } satisfies RepairParams,
  };
}

/**
 * Applies one repair inside the Apply engine's IMMEDIATE transaction on the memory DB: the row must still be exactly
 * what the person reviewed (a compare-and-swap, as Codex's own claims are), else nothing is changed.
 */
export function runRepair(db: Database.Database, change: DbChange, recovering = false): void {
  const parsed = repairSchemas().RepairParamsSchema.safeParse(change.params);
  if (!parsed.success)
    throw new StudioFailure(
      'Invalid',
      `The stored DB change "${change.description}" is damaged (${parsed.error.issues[0]?.message ?? 'bad params'}); nothing was changed.`,
    );
  const { kind, jobKey, before, after } = parsed.data;
  const guard = JOB_COLUMNS.map((c) => `${c} IS @b_${c}`).join(' AND ');
  const sets = JOB_COLUMNS.filter((c) => before[c] !== after[c]).map((c) => `${c} = @a_${c}`);
  if (sets.length === 0) return;
  const values: Record<string, unknown> = { kind, key: jobKey };
  for (const c of JOB_COLUMNS) {
    values[`b_${c}`] = before[c];
    values[`a_${c}`] = after[c];
  }
  const changed = db.prepare(`UPDATE jobs SET ${sets.join(', ')} WHERE kind = @kind AND job_key = @key AND ${guard}`).run(values).changes;
  if (changed !== 1) {
    const now = readJob(db, kind, jobKey);
    // Recovery finishing an interrupted Apply runs the change again: a row already at `after` is this change, done.
    if (now && JOB_COLUMNS.every((c) => now[c] === after[c])) return;
    const found = now ? `now: ${describeColumns(before, now) || 'same values'}` : 'the row is gone';
    // After a crash the interrupted Apply may have made the swap before Codex moved the row on: it cannot be told.
    if (recovering)
      throw new StudioFailure(
        'Conflict',
        `Codex changed this job after the interrupted Apply (${found}): whether the repair was made before the interruption cannot be told, and nothing more was changed.`,
        { hint: 'Look at the coverage: make a new repair if the job still needs one.' },
      );
    throw new StudioFailure('Conflict', `Codex changed this job since the proposal was made (${found}); nothing was changed.`, {
      hint: 'Look at the coverage again and make a new proposal if it is still needed.',
    });
  }
}
