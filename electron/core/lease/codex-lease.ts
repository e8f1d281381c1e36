// Claims, heart-beats and releases Codex's global Phase 2 lease the way Codex claims it (docs/codex-facts.md, Phase 2 lease).
import { randomUUID } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import type Database from 'better-sqlite3';
import type { MemoryVersion } from '../../../shared/domain';
import { GLOBAL_JOB_KEY, JOB_KINDS, memoryDbName } from '../codex/constants';
import { codexDbFailure } from '../codex-db/db-failure';
import { dataFolderFailure, StudioFailure } from '../platform/errors';
import { errorCode } from '../platform/storage-faults';
import { openSqlite } from '../platform/sqlite';
import {
  type LeaseRowState,
  leaseRecordDir,
  leaseRecordPath,
  readLeaseRecord,
  readLeaseRow,
  restoreLeaseRow,
  studioWorkerId,
  writeLeaseRecordSync,
} from './lease-row';
import { deadInThisNamespace, namespaceId, parseStudioWorker, STUDIO_WORKER_PREFIX } from '../platform/host-identity';

/** Our lease is short (Codex uses 3,600 s): if we die, Codex waits at most this long, and the next Studio run undoes it. */
export const STUDIO_LEASE_SECONDS = 120;
export const HEARTBEAT_MS = 30_000;

export interface HeldLease {
  db: Database.Database;
  dbPath: string;
  token: string;
  previous: LeaseRowState | null;
  recordPath: string;
  lost: boolean;
  /** Set when an Apply that borrowed this lease changed files: its owner's release must then leave the row `pending`. */
  changed?: boolean;
}

function iso(sec: number | null): string {
  return sec === null ? 'an unknown time' : new Date(sec * 1000).toISOString();
}

/** A running row left by a Memory Studio process of this machine and PID namespace that no longer exists. */
export function deadStudioHolder(row: LeaseRowState): boolean {
  const holder = parseStudioWorker(row.worker_id);
  return holder !== null && deadInThisNamespace(holder.pid, holder.namespace);
}

/**
 * Only a live lease refuses, as the architecture asks ("if Codex holds it, Apply is refused"). Codex's two other
 * refusals are about Codex pacing itself and are deliberately NOT applied to a person's reviewed change: the 6 h
 * success cooldown (`last_error IS NULL AND finished_at > now - 21600`) and the retry backoff after a failed run
 * (`retry_at > now`). Our release restores finished_at, last_error and retry_at (or sets `pending` as Codex's
 * enqueue does when files changed), so Codex's own pacing is unchanged by an Apply.
 */
function refusal(row: LeaseRowState, nowSec: number, version: string): StudioFailure | null {
  if (row.status === 'running' && row.lease_until !== null && row.lease_until > nowSec && !deadStudioHolder(row)) {
    if ((row.worker_id ?? '').startsWith(STUDIO_WORKER_PREFIX)) {
      return new StudioFailure(
        'Locked',
        `Memory Studio (${holderName(row.worker_id)}) holds Codex's ${version} memory lock for a consolidation or an Apply in progress, until ${iso(row.lease_until)} at the latest.`,
        {
          hint: 'Apply or reject the consolidation waiting in that window\u2019s review (or close it), then try again. Nothing was written.',
        },
      );
    }
    return new StudioFailure(
      'Locked',
      `Codex is consolidating memories right now (lease held by ${row.worker_id ?? 'an unnamed worker'} until ${iso(row.lease_until)}); try again after that.`,
      { hint: `Nothing was written. The ${version} memory folder is Codex's while it consolidates.` },
    );
  }
  return null;
}

/** "process 4242", or "process 4242 of another machine or container" when its namespace is not ours. */
function holderName(workerId: string | null): string {
  const holder = parseStudioWorker(workerId);
  if (!holder) return workerId ?? 'an unnamed worker';
  return holder.namespace === namespaceId() ? `process ${holder.pid}` : `process ${holder.pid} of another machine, boot or container`;
}

/** The guarded write of the claim: re-checks the same conditions, so a racing claimer makes it change 0 rows. */
function claimRow(db: Database.Database, token: string, nowSec: number, previous: LeaseRowState | null): boolean {
  const lease = nowSec + STUDIO_LEASE_SECONDS;
  if (previous === null) {
    return (
      db
        .prepare(
          `INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token, started_at, finished_at, lease_until, retry_at,
          retry_remaining, last_error, input_watermark, last_success_watermark)
          VALUES (?, ?, 'running', ?, ?, ?, NULL, ?, NULL, 3, NULL, 0, 0) ON CONFLICT(kind, job_key) DO NOTHING`,
        )
        .run(JOB_KINDS.global, GLOBAL_JOB_KEY, studioWorkerId(), token, nowSec, lease).changes === 1
    );
  }
  const takeoverOfDead = deadStudioHolder(previous) ? ` OR (worker_id = @deadWorker)` : '';
  return (
    db
      .prepare(
        `UPDATE jobs SET status = 'running', worker_id = @worker, ownership_token = @token, started_at = @now, finished_at = NULL,
        lease_until = @lease, retry_at = NULL, last_error = NULL
        WHERE kind = @kind AND job_key = @key
          AND (status != 'running' OR lease_until IS NULL OR lease_until <= @now${takeoverOfDead})`,
      )
      .run({
        worker: studioWorkerId(),
        token,
        now: nowSec,
        lease,
        kind: JOB_KINDS.global,
        key: GLOBAL_JOB_KEY,
        deadWorker: previous.worker_id,
      }).changes === 1
  );
}

/** The state to restore: a dead Studio holder's own saved previous state when we have it, else the row we found. */
export async function previousBehindDeadHolder(dataDir: string, dbPath: string, row: LeaseRowState): Promise<LeaseRowState> {
  if (row.ownership_token) {
    const record = await readLeaseRecord(leaseRecordPath(dataDir, dbPath, row.ownership_token));
    if (record?.previous) return record.previous;
  }
  // Unknown (no record, or one that does not parse: lost all the same): hand the row back as an expired run that asks
  // for consolidation, which Codex handles by itself.
  return { ...row, status: 'pending', lease_until: null, retry_at: null, worker_id: null, ownership_token: null };
}

/**
 * Claims the lease in `dbPath`; `Locked` when Codex holds it (or its DB stays locked). Every other fault, of Codex's DB
 * (damaged, empty, another schema) or of the data folder (the lease record on a full disk), is said with its file. The
 * caller must release it.
 */
export async function claimLease(dataDir: string, dbPath: string, version: MemoryVersion, nowSec: number): Promise<HeldLease> {
  return claimLeaseIn(dataDir, dbPath, version, nowSec).catch((error: unknown) => {
    throw leaseFailure(error, dataDir, dbPath, version);
  });
}

/** SQLite's errors are about Codex's DB; the file system's (the lease record) about the data folder. */
function leaseFailure(error: unknown, dataDir: string, dbPath: string, version: MemoryVersion): unknown {
  const path = (error as NodeJS.ErrnoException | null)?.path;
  if (!errorCode(error).startsWith('SQLITE') && errorCode(error) !== '')
    return dataFolderFailure(error, path ?? leaseRecordDir(dataDir), "Memory Studio's record of Codex's lock") ?? error;
  return codexDbFailure(
    memoryDbName(version),
    dbPath,
    error,
    `Memory Studio cannot take Codex's ${version} memory lock`,
    'Nothing was changed.',
  );
}

async function claimLeaseIn(dataDir: string, dbPath: string, version: MemoryVersion, nowSec: number): Promise<HeldLease> {
  const db = openSqlite(dbPath, { fileMustExist: true, timeout: 10_000 });
  const token = randomUUID();
  const recordPath = leaseRecordPath(dataDir, dbPath, token);
  try {
    const peek = readLeaseRow(db);
    const deadPrevious =
      peek && peek.status === 'running' && deadStudioHolder(peek) ? await previousBehindDeadHolder(dataDir, dbPath, peek) : null;
    const previous = db
      .transaction((): LeaseRowState | null => {
        const row = readLeaseRow(db);
        if (row) {
          const refused = refusal(row, nowSec, version);
          if (refused) throw refused;
        }
        const restoreTo = row && deadStudioHolder(row) && deadPrevious ? deadPrevious : row;
        writeLeaseRecordSync(recordPath, { dbPath, token, workerId: studioWorkerId(), previous: restoreTo });
        if (!claimRow(db, token, nowSec, row))
          throw new StudioFailure('Busy', `Codex's lock in ${dbPath} changed while Memory Studio was claiming it.`, { hint: 'Try again.' });
        return restoreTo;
      })
      .immediate();
    return { db, dbPath, token, previous, recordPath, lost: false };
  } catch (error) {
    db.close();
    // A record of a claim that never committed would otherwise be taken for a crashed one.
    await unlink(recordPath).catch(() => undefined);
    throw claimFailure(error, dbPath, version);
  }
}

/** A full disk (Codex's DB or the lease record's data folder) said in words; anything else as it was thrown. */
function claimFailure(error: unknown, dbPath: string, version: string): unknown {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  if (code !== 'SQLITE_FULL' && code !== 'ENOSPC' && code !== 'EDQUOT') return error;
  const where = (error as NodeJS.ErrnoException).path ?? dbPath;
  return new StudioFailure('Internal', `Could not take Codex's ${version} memory lock: the disk is full (${where}). Nothing was written.`, {
    path: where,
    hint: 'Free some disk space, then try again.',
    cause: error,
  });
}

/** Extends our lease; false (and `lost`) when the row is no longer ours, so no further write may happen. */
export function heartbeatLease(lease: HeldLease, nowSec: number): boolean {
  if (lease.lost) return false;
  const changed = lease.db
    .prepare(`UPDATE jobs SET lease_until = ? WHERE kind = ? AND job_key = ? AND status = 'running' AND ownership_token = ?`)
    .run(nowSec + STUDIO_LEASE_SECONDS, JOB_KINDS.global, GLOBAL_JOB_KEY, lease.token).changes;
  if (changed !== 1) lease.lost = true;
  return !lease.lost;
}

/** How often a release that failed (a full disk) is tried again while this process lives. */
export const RELEASE_RETRY_MS = 5_000;

/**
 * Puts the row back under our ownership guard (false when it is no longer ours). On a full disk (SQLITE_FULL) the WAL
 * is checkpointed first, so the write reuses the WAL's own space instead of growing it, and tried once more.
 */
export function restoreRow(db: Database.Database, token: string, previous: LeaseRowState | null, filesChanged: boolean): boolean {
  const restore = () => db.transaction(() => restoreLeaseRow(db, token, previous, filesChanged)).immediate();
  try {
    return restore();
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'SQLITE_FULL') throw error;
    db.pragma('wal_checkpoint(RESTART)');
    return restore();
  }
}

/**
 * A release that failed keeps trying while this process lives (a long-lived app or serve host must not hold Codex's
 * lease until the disk has room by chance); the record stays until it succeeds, so if this process ends first, the
 * next start hands the lease back from it (or from the row's holder alone).
 */
function retryRelease(lease: HeldLease, filesChanged: boolean): void {
  const timer = setInterval(() => {
    try {
      const db = openSqlite(lease.dbPath, { fileMustExist: true, timeout: 1_000 });
      try {
        restoreRow(db, lease.token, lease.previous, filesChanged);
      } finally {
        db.close();
      }
    } catch {
      return; // Still no room (or the DB is away): the next tick tries again.
    }
    clearInterval(timer);
    void unlink(lease.recordPath).catch(() => undefined);
  }, RELEASE_RETRY_MS);
  timer.unref();
}

/**
 * Releases without cooldown or backoff; returns whether the row was left `pending`. Always closes the DB. When the
 * row cannot be written (a full disk), the lease record is kept, the release is retried in the background, and the
 * error is rethrown: the lease never outlives this process, and not its record either.
 */
export async function releaseLease(lease: HeldLease, filesChanged: boolean): Promise<'restored' | 'pending'> {
  try {
    restoreRow(lease.db, lease.token, lease.previous, filesChanged);
  } catch (error) {
    lease.db.close();
    retryRelease(lease, filesChanged);
    throw error;
  }
  lease.db.close();
  await unlink(lease.recordPath).catch(() => undefined);
  return filesChanged ? 'pending' : 'restored';
}
