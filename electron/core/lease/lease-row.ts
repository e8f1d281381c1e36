// Codex's global Phase 2 row: reading it, and the record of its previous state that lets a crash be undone.
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { GLOBAL_JOB_KEY, JOB_KINDS } from '../codex/constants';
import { intOrNull, stringOrNull } from '../codex-db/time';
import { writeFileAtomicSync } from '../platform/atomic-write';
import { PRIVATE_FILE_MODE } from '../platform/private-files';
import { namespaceId } from '../platform/host-identity';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import type { LeaseRecord, LeaseRowState } from './lease-record';

export type { LeaseRecord, LeaseRowState } from './lease-record';

export { STUDIO_WORKER_PREFIX, studioWorkerId } from '../platform/host-identity';

export function readLeaseRow(db: Database.Database): LeaseRowState | null {
  const row = db
    .prepare(
      `SELECT status, worker_id, ownership_token, started_at, finished_at, lease_until, retry_at, retry_remaining, last_error, input_watermark
      FROM jobs WHERE kind = ? AND job_key = ?`,
    )
    .get(JOB_KINDS.global, GLOBAL_JOB_KEY) as Record<string, unknown> | undefined;
  if (!row) return null;
  return {
    status: String(row.status),
    worker_id: stringOrNull(row.worker_id),
    ownership_token: stringOrNull(row.ownership_token),
    started_at: intOrNull(row.started_at),
    finished_at: intOrNull(row.finished_at),
    lease_until: intOrNull(row.lease_until),
    retry_at: intOrNull(row.retry_at),
    retry_remaining: intOrNull(row.retry_remaining) ?? 0,
    last_error: stringOrNull(row.last_error),
    input_watermark: intOrNull(row.input_watermark),
  };
}

export function leaseRecordDir(dataDir: string): string {
  return join(dataDir, 'leases');
}

export function leaseRecordPath(dataDir: string, dbPath: string, token: string): string {
  return join(leaseRecordDir(dataDir), `${createHash('sha256').update(dbPath).digest('hex').slice(0, 16)}-${token}.json`);
}

/**
 * Synchronous on purpose: it runs inside the BEGIN IMMEDIATE transaction, before the claim's write, so the record
 * exists (fsync'd) whenever the claim is committed. Holding the DB's write lock for one small fsync is acceptable.
 */
export function writeLeaseRecordSync(path: string, record: Omit<LeaseRecord, 'pid' | 'hostname' | 'namespace'>): void {
  // Whole or absent: a kill mid-write leaves a temp file of ours, never a half record that nobody could judge.
  writeFileAtomicSync(
    path,
    JSON.stringify({ ...record, pid: process.pid, hostname: hostname(), namespace: namespaceId() }),
    PRIVATE_FILE_MODE,
  );
}

/**
 * A holder's record read back, or null when it is lost: gone, unreadable, or not the shape this build writes (a
 * damaged or hand-edited file). Nothing of a record that does not parse is used: its `previous` would be written into
 * Codex's DB. A lost record is what the row alone recovers from (`previousBehindDeadHolder`).
 */
export async function readLeaseRecord(path: string): Promise<LeaseRecord | null> {
  const bytes = await readRegularFile(path, path, NO_CAP).then(
    (file) => file.bytes,
    () => null,
  );
  if (!bytes) return null;
  // Loaded on use: a start with no lease record (every normal one) loads no schema and no zod.
  const { parseLeaseRecord } = await import('./lease-record.js');
  const parsed = parseLeaseRecord(bytes);
  return parsed.ok ? parsed.value : null;
}

/**
 * Codex's `enqueue_global_consolidation(now)`: the watermark becomes `now` when it is past the previous one (or there
 * was none), else the previous one + 1, so it always moves forward and stays a unix time while clocks behave.
 */
export function enqueuedWatermark(previous: number | null, nowSec: number): number {
  const prev = previous ?? 0;
  return nowSec > prev ? nowSec : prev + 1;
}

/**
 * Puts the row back as it was before our claim, under our ownership guard. When memory files changed, the row is
 * left `pending` as Codex's enqueue does (retry_remaining >= 3, no retry_at, input_watermark as `enqueuedWatermark`),
 * so the next consolidation folds the change in; finished_at and last_error are kept, so no cooldown or backoff is
 * imposed. Returns false when the row is no longer ours.
 */
export function restoreLeaseRow(
  db: Database.Database,
  token: string,
  previous: LeaseRowState | null,
  filesChanged: boolean,
  nowSec = Math.floor(Date.now() / 1000),
): boolean {
  const guard = `kind = @kind AND job_key = @key AND ownership_token = @token`;
  const keys = { kind: JOB_KINDS.global, key: GLOBAL_JOB_KEY, token };
  if (previous === null) {
    if (!filesChanged) return db.prepare(`DELETE FROM jobs WHERE ${guard}`).run(keys).changes === 1;
    return (
      db
        .prepare(
          `UPDATE jobs SET status = 'pending', worker_id = NULL, ownership_token = NULL, started_at = NULL, finished_at = NULL,
          lease_until = NULL, retry_at = NULL, retry_remaining = 3, last_error = NULL, input_watermark = @watermark WHERE ${guard}`,
        )
        .run({ ...keys, watermark: enqueuedWatermark(null, nowSec) }).changes === 1
    );
  }
  const next: LeaseRowState = filesChanged
    ? {
        ...previous,
        status: 'pending',
        retry_at: null,
        retry_remaining: Math.max(previous.retry_remaining, 3),
        input_watermark: enqueuedWatermark(previous.input_watermark, nowSec),
      }
    : previous;
  return (
    db
      .prepare(
        `UPDATE jobs SET status = @status, worker_id = @worker_id, ownership_token = @ownership_token, started_at = @started_at,
        finished_at = @finished_at, lease_until = @lease_until, retry_at = @retry_at, retry_remaining = @retry_remaining,
        last_error = @last_error, input_watermark = @input_watermark WHERE ${guard}`,
      )
      .run({ ...next, ...keys }).changes === 1
  );
}
