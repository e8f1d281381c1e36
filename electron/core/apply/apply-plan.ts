// The Apply engine: writes a reviewed plan atomically under the in-process queue, the lock file and Codex's lease.
import { existsSync } from 'node:fs';
import { mkdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { StudioFailure } from '../platform/errors';
import { commitAll } from './commit';
import { type HeldLease, HEARTBEAT_MS, claimLease, heartbeatLease, releaseLease } from '../lease/codex-lease';
import { deleteJournal, listJournals, writeJournal } from './journal';
import { type HeldLock, acquireLockFile, releaseLockFile, touchLockFile } from './lock-file';
import {
  type PreparedFile,
  checkBases,
  checkPlanShape,
  discardTemps,
  isMemoryFile,
  memoryFiles,
  resolveTargets,
  writeTemps,
} from './prepare';
import { killPoint } from './kill-point';
import { recoverJournal, sweepTempFiles } from './recovery';
import { acquireRootQueues } from './root-queue';
import { maskTrashFolder, trashDir } from './trash';
import type { ApplyOptions, ApplyOutcome, ApplyPlan, MemoryVersion } from './types';

interface Held {
  locks: HeldLock[];
  leases: { version: MemoryVersion; lease: HeldLease | null; borrowed?: boolean }[];
  /** Whether memory files differ from their bases on disk, which decides `pending` at release. */
  changed: boolean;
  /** Versions whose Codex-DB changes asked for consolidation (Codex's enqueue): left `pending` at release. */
  pending: Set<MemoryVersion>;
}

/** Every version whose lease the plan needs: those of its memory files and those whose DB it changes. */
function planVersions(plan: ApplyPlan): MemoryVersion[] {
  const dbVersions = (plan.db?.versions ?? []).filter((v) => v.lease !== false);
  return [...new Set([...memoryFiles(plan), ...dbVersions].map((f) => f.version))].sort();
}

function leavePending(held: Held, version: MemoryVersion): boolean {
  return held.changed || held.pending.has(version);
}

/** Journals a dead apply left on these roots: finished or undone before we look at any base (we hold the locks). */
async function recoverOwnRoots(dataDir: string, roots: ReadonlySet<string>, plan: ApplyPlan, takenOver: readonly string[]): Promise<void> {
  for (const { path, journal } of await listJournals(dataDir)) {
    if (journal.entries.some((e) => roots.has(e.root))) await recoverJournal(path, journal, { dataDir });
  }
  // A stale lock taken over was the only sign of its holder's temp files: once it is gone, no later check would look.
  // Those of a writer that is gone go now (a project folder only ever gets them at its top).
  const projects = new Set(plan.files.filter((f) => !isMemoryFile(f)).map((f) => f.root));
  for (const root of takenOver) await sweepTempFiles(root, projects.has(root));
}

/** Claims Codex's lease for each touched version, in a fixed order; a version without a memory DB has nobody to coordinate with. */
async function claimLeases(plan: ApplyPlan, options: ApplyOptions, nowSec: number, held: Held): Promise<void> {
  for (const version of planVersions(plan)) {
    const dbPath = plan.dbPaths[version];
    if (dbPath === undefined || !existsSync(dbPath)) {
      held.leases.push({ version, lease: null });
      continue;
    }
    // Held by this process for a consolidation under review: Apply works under it; its owner releases it.
    const borrowed = options.borrowLease?.(dbPath) ?? null;
    if (borrowed) {
      held.leases.push({ version, lease: borrowed, borrowed: true });
      continue;
    }
    held.leases.push({ version, lease: await claimLease(options.dataDir, dbPath, version, nowSec) });
  }
}

function startHeartbeat(held: Held, now: () => number): NodeJS.Timeout {
  const timer = setInterval(() => {
    const sec = Math.floor(now() / 1000);
    for (const { lease } of held.leases) {
      try {
        if (lease) heartbeatLease(lease, sec);
      } catch {
        // The DB cannot be written (a full disk): our lease may run out, so no further write may rely on it.
        if (lease) lease.lost = true;
      }
    }
    for (const lock of held.locks) void touchLockFile(lock);
  }, HEARTBEAT_MS);
  timer.unref();
  return timer;
}

/** Verifies every lease right now (a heartbeat that must change our row): the last check before the first rename. */
function confirmOwnership(held: Held, nowSec: number): void {
  for (const { version, lease } of held.leases) {
    if (lease && !heartbeatLease(lease, nowSec)) {
      throw new StudioFailure(
        'Locked',
        `Codex's ${version} memory lock was taken from Memory Studio before anything was written; nothing was changed.`,
        {
          hint: 'Wait for Codex to finish consolidating, then apply again.',
        },
      );
    }
  }
}

function outcomeOf(prepared: readonly PreparedFile[], lease: ApplyOutcome['lease']): ApplyOutcome {
  return {
    applied: prepared.map((p) => ({
      version: p.file.version,
      relPath: p.file.relPath,
      beforeSha256: p.file.baseSha256,
      afterSha256: p.targetSha256,
      before: p.before === null ? null : p.before.toString('utf8'),
    })),
    lease,
  };
}

function leaseReport(held: Held): ApplyOutcome['lease'] {
  return held.leases.map(({ version, lease }) => ({
    version,
    previous: lease ? (leavePending(held, version) ? 'pending' : 'restored') : 'absent',
  }));
}

/** The Codex-DB step, right after the renames: ownership is proven again first (a heartbeat that must change our row). */
function dbStep(options: ApplyOptions, held: Held, now: () => number): (() => void) | undefined {
  const commitDb = options.commitDb;
  if (!commitDb) return undefined;
  return () => {
    confirmOwnership(held, Math.floor(now() / 1000));
    for (const version of commitDb()) held.pending.add(version);
    killPoint('db');
  };
}

/** The journal, fsync'd before the first rename: every target with its temp or trash, and what recovery records. */
async function journalPlan(plan: ApplyPlan, options: ApplyOptions, prepared: readonly PreparedFile[], now: () => number): Promise<string> {
  return writeJournal(options.dataDir, {
    id: plan.id,
    pid: process.pid,
    createdAt: now(),
    entries: prepared.map((p) => ({
      version: p.file.version,
      root: p.file.root,
      relPath: p.file.relPath,
      target: p.target,
      temp: p.temp,
      trash: p.trash,
      baseSha256: p.file.baseSha256,
      targetSha256: p.targetSha256,
      // Outside every memory root (a project's AGENTS.md, an agent's configuration): recovery sweeps its folder at the top only.
      ...(isMemoryFile(p.file) ? {} : { project: true }),
    })),
    ...(plan.record ? { record: plan.record } : {}),
  });
}

/**
 * The files are in place: onCommitted records them (a proposal's history entry). If it fails (a full disk under the
 * Studio DB), a proposal's journal is kept so that recovery records the Apply later; the error is rethrown.
 */
async function afterCommit(plan: ApplyPlan, options: ApplyOptions, journalPath: string, outcome: ApplyOutcome): Promise<void> {
  try {
    await options.onCommitted?.(outcome);
  } catch (error) {
    if (!plan.record) await deleteJournal(journalPath);
    throw error;
  }
  killPoint('recorded');
  await deleteJournal(journalPath);
  killPoint('journal-deleted');
}

/** Everything after the locks: bases, temps, journal, renames, onCommitted. Returns whether files changed on disk. */
async function writeUnderLocks(plan: ApplyPlan, options: ApplyOptions, held: Held, now: () => number): Promise<ApplyOutcome> {
  const stamp = new Date(now()).toISOString().replace(/[:.]/g, '-');
  const trashFolder = join(trashDir(options.dataDir), `${stamp}-${plan.id}`);
  const prepared = await resolveTargets(plan, trashFolder);
  await claimLeases(plan, options, Math.floor(now() / 1000), held);
  killPoint('leased');
  const timer = startHeartbeat(held, now);
  const createdDirs: string[] = [];
  try {
    checkBases(prepared);
    await writeTemps(prepared, createdDirs, options.faults);
    killPoint('temps');
    const changes = prepared.some((p) => p.targetSha256 !== p.file.baseSha256);
    let journalPath: string;
    try {
      confirmOwnership(held, Math.floor(now() / 1000));
      journalPath = await journalPlan(plan, options, prepared, now);
    } catch (error) {
      await discardTemps(prepared, createdDirs);
      throw error;
    }
    killPoint('journal');
    try {
      await commitAll(
        prepared,
        () => held.leases.every((l) => !l.lease?.lost),
        options.faults,
        () => (held.changed = true),
        dbStep(options, held, now),
      );
    } catch (error) {
      await discardTemps(prepared, createdDirs);
      await deleteJournal(journalPath);
      throw error;
    }
    held.changed = changes;
    const outcome = outcomeOf(prepared, leaseReport(held));
    await afterCommit(plan, options, journalPath, outcome);
    // Nothing can move a deleted file back now: the trash keeps it masked (a failure here is retried at start-up).
    if (prepared.some((p) => p.trash !== null)) await maskTrashFolder(trashFolder).catch(() => undefined);
    return outcome;
  } finally {
    clearInterval(timer);
  }
}

/**
 * Creates, under the locks, a missing root the plan writes into (an import into a version Codex has not used yet,
 * as Codex's importer creates its layout): the proposal was made against it as "every file absent", and making it
 * only here means a rejected proposal leaves nothing behind. Returns the roots created.
 */
async function createMissingRoots(plan: ApplyPlan): Promise<string[]> {
  const created: string[] = [];
  // A project folder is never created: promoting into a folder that is gone is refused by its checks.
  for (const root of new Set(
    memoryFiles(plan)
      .filter((f) => f.content !== null)
      .map((f) => f.root),
  )) {
    if (existsSync(root)) continue;
    await mkdir(root, { recursive: true });
    created.push(root);
  }
  return created;
}

/**
 * Applies `plan`: takes, for every root it touches, the in-process queue, then the lock file, then Codex's lease
 * (all roots before any write), re-checks every base (a mismatch is `Conflict`), writes temps, journals, renames,
 * calls `onCommitted` while still locked, and releases without imposing Codex's cooldown. If onCommitted throws,
 * the files stay applied (the lease is left `pending`) and its error is rethrown for the caller to reconcile.
 */
export async function applyPlan(plan: ApplyPlan, options: ApplyOptions): Promise<ApplyOutcome> {
  checkPlanShape(plan);
  const now = options.now ?? Date.now;
  const roots = [...new Set([...plan.files, ...(plan.db?.versions ?? [])].map((f) => f.root))].sort();
  const releaseQueues = await acquireRootQueues(roots);
  const held: Held = { locks: [], leases: [], changed: false, pending: new Set() };
  let failed = false;
  try {
    const takenOver: string[] = [];
    const projects = new Set(plan.files.filter((f) => !isMemoryFile(f)).map((f) => f.root));
    for (const root of roots) {
      const lock = await acquireLockFile(options.dataDir, root, now(), projects.has(root));
      held.locks.push(lock);
      if (lock.tookOver) takenOver.push(root);
    }
    await recoverOwnRoots(options.dataDir, new Set(roots), plan, takenOver);
    const created = await createMissingRoots(plan);
    killPoint('locked');
    try {
      return await writeUnderLocks(plan, options, held, now);
    } catch (error) {
      // Nothing landed: a root this Apply created goes again (rmdir only removes it while it is still empty).
      for (const root of created) await rmdir(root).catch(() => undefined);
      throw error;
    }
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    options.faults?.beforeRelease?.();
    await releaseAll(held, failed);
    releaseQueues();
  }
}

/**
 * Leases first (reverse order of taking), then lock files; every step is attempted even if an earlier one fails. A
 * lease that cannot be written back now (a full disk) keeps its record and is retried in the background
 * (`releaseLease`), so it never outlives this process: its failure is not this Apply's. Neither replaces the error
 * of an Apply that failed, which is what the person must read ("the disk is full", naming the file).
 */
async function releaseAll(held: Held, applyFailed: boolean): Promise<void> {
  const errors: unknown[] = [];
  for (const { version, lease, borrowed } of [...held.leases].reverse()) {
    if (lease && borrowed && leavePending(held, version)) lease.changed = true;
    if (lease && !borrowed) await releaseLease(lease, leavePending(held, version)).catch(() => undefined);
  }
  killPoint('released');
  for (const lock of [...held.locks].reverse()) await releaseLockFile(lock).catch((error: unknown) => errors.push(error));
  if (errors.length > 0 && !applyFailed) throw errors[0];
}
