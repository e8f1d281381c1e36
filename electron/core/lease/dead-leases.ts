// Hands back Codex leases of Memory Studio processes that are gone: from their lease records, or from the row alone.
import { existsSync } from 'node:fs';
import { readdir, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { tempWriterGone } from '../platform/atomic-write';
import { deadInThisNamespace, namespaceId } from '../platform/host-identity';
import { openSqlite } from '../platform/sqlite';
import { deadStudioHolder, previousBehindDeadHolder, restoreRow } from './codex-lease';
import { type LeaseRecord, leaseRecordDir, readLeaseRecord, readLeaseRow } from './lease-row';

/** The lease records of Memory Studio processes of this namespace that are gone (each one a lease to hand back). */
async function deadLeaseRecords(dataDir: string): Promise<Array<{ path: string; record: LeaseRecord | null }>> {
  const dir = leaseRecordDir(dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: Array<{ path: string; record: LeaseRecord | null }> = [];
  for (const name of names) {
    const path = join(dir, name);
    // A record being written (a temp file): its claim never committed if its writer is gone.
    const writerGone = tempWriterGone(name, true);
    if (writerGone !== null) {
      if (writerGone) out.push({ path, record: null });
      continue;
    }
    if (!name.endsWith('.json')) continue;
    // Records are renamed into place whole, so one that does not parse is damaged: nothing can be restored from it. It
    // goes as lost, and the row, which names its holder, is handed back by itself (`releaseDeadRow`).
    const record = await readLeaseRecord(path);
    // Older records have no namespace: judged by pid on the same host name, as before.
    const namespace = record?.namespace ?? (record?.hostname === hostname() ? namespaceId() : null);
    if (!record || deadInThisNamespace(record.pid, namespace)) out.push({ path, record });
  }
  return out;
}

/**
 * Whether Codex's row in `dbPath` is held by a Memory Studio process of this namespace that is gone: our worker id is
 * `memory-studio:<pid>@<namespace>`, so the row alone says it, even when the holder's record is lost (a full disk).
 * Read only; a DB that cannot be read says no (the next Apply's claim takes such a holder over all the same).
 */
function rowHeldByDead(dbPath: string): boolean {
  if (!existsSync(dbPath)) return false;
  try {
    const db = openSqlite(dbPath, { readonly: true, fileMustExist: true, timeout: 1_000 });
    try {
      const row = readLeaseRow(db);
      return row !== null && row.status === 'running' && deadStudioHolder(row);
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

export async function hasDeadLeases(dataDir: string, dbPaths: readonly string[] = []): Promise<boolean> {
  return (await deadLeaseRecords(dataDir)).length > 0 || dbPaths.some(rowHeldByDead);
}

/** Hands back the row of `dbPath` if a dead Memory Studio process holds it: to its recorded state, else `pending`. */
async function releaseDeadRow(dataDir: string, dbPath: string): Promise<boolean> {
  if (!rowHeldByDead(dbPath)) return false;
  const db = openSqlite(dbPath, { fileMustExist: true, timeout: 10_000 });
  try {
    const row = readLeaseRow(db);
    if (!row?.ownership_token || row.status !== 'running' || !deadStudioHolder(row)) return false;
    const previous = await previousBehindDeadHolder(dataDir, dbPath, row);
    const token = row.ownership_token;
    return restoreRow(db, token, previous, true);
  } finally {
    db.close();
  }
}

/** Restores the row a dead holder's record names, guarded by its token (false when the row is no longer its). */
function releaseRecorded(record: LeaseRecord): boolean {
  const db = openSqlite(record.dbPath, { fileMustExist: true, timeout: 10_000 });
  try {
    return restoreRow(db, record.token, record.previous, true);
  } finally {
    db.close();
  }
}

/**
 * Hands back leases of Memory Studio processes that died holding them: each dead holder's record names the previous
 * state; a row in `dbPaths` whose holder is dead but whose record is gone goes back as `pending`. The row is left
 * `pending` either way: we cannot know whether the dead process changed files, and pending only asks Codex to look at
 * its git diff. Leases and records of live processes are left alone.
 */
export async function recoverDeadLeases(dataDir: string, dbPaths: readonly string[] = []): Promise<string[]> {
  const released: string[] = [];
  for (const { path, record } of await deadLeaseRecords(dataDir)) {
    try {
      if (record && existsSync(record.dbPath) && releaseRecorded(record)) released.push(record.dbPath);
    } catch {
      continue; // The row cannot be written now (a full disk): the record stays for the next start.
    }
    await unlink(path).catch(() => undefined);
  }
  for (const dbPath of dbPaths) {
    if (released.includes(dbPath)) continue;
    // A row that cannot be written now (a full disk) is found again by the next start: the row itself says it.
    if (await releaseDeadRow(dataDir, dbPath).catch(() => false)) released.push(dbPath);
  }
  return released;
}
