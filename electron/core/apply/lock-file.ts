// Cross-process lock file per memory root in the data folder, with stale detection by pid and age.
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { link, mkdir, open, readdir, rename, unlink, utimes } from 'node:fs/promises';
import { StudioFailure } from '../platform/errors';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { deadInThisNamespace, namespaceId } from '../platform/host-identity';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../platform/private-files';
import { errorCode } from '../platform/storage-faults';
import type { LockContent, ParsedLock } from './lock-record';

/** A holder that has not refreshed its lock for this long is presumed hung (heartbeats refresh it every 30 s). */
export const LOCK_MAX_AGE_MS = 10 * 60 * 1000;

export interface HeldLock {
  path: string;
  token: string;
  /** A stale lock (a dead or silent holder's) was taken over: its temp files may still be in the folder. */
  tookOver?: boolean;
}

export function lockPathFor(dataDir: string, root: string): string {
  return join(dataDir, 'locks', `${createHash('sha256').update(root).digest('hex')}.lock`);
}

interface ReadLock extends ParsedLock {
  mtimeMs: number;
}

async function readLock(path: string): Promise<ReadLock | null> {
  const file = await readRegularFile(path, path, NO_CAP).catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  });
  if (!file) return null;
  // Loaded on use: at a normal start no lock file is there, and no schema (nor zod) is loaded.
  const { parseLock } = await import('./lock-record.js');
  return { ...parseLock(file.bytes), mtimeMs: file.info.mtimeMs };
}

/**
 * Stale: a dead pid of this namespace, or a holder silent for longer than the max age (a live one touches its lock
 * every 30 s). A lock is created whole (tryCreate), so one that does not parse was damaged or edited: it is judged by
 * what is left, the pid check when its writer can still be read and its age, and is never presumed free before that.
 */
function staleReason(lock: ReadLock, nowMs: number): string | null {
  const h = lock.holder;
  if (h && deadInThisNamespace(h.pid, h.namespace ?? (h.hostname === hostname() ? namespaceId() : null))) return `process ${h.pid} is gone`;
  if (nowMs - lock.mtimeMs > LOCK_MAX_AGE_MS) return lock.content ? 'too old' : 'unreadable and silent for too long';
  return null;
}

/**
 * Creates the lock with its content already in place: write a private file, then link(2) it to the lock name.
 * link fails with EEXIST exactly as open(O_CREAT|O_EXCL) does, but a crash can never leave an empty lock behind.
 */
async function tryCreate(path: string, content: LockContent): Promise<boolean> {
  const temp = `${path}.${process.pid}-${content.token}.tmp`;
  const handle = await open(temp, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(JSON.stringify(content));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Moves a stale lock aside and deletes it only if it is still the one judged stale (another taker may have won). */
async function takeOver(path: string, stale: LockContent | null): Promise<void> {
  const aside = `${path}.stale-${process.pid}-${randomUUID()}`;
  try {
    await rename(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const moved = await readLock(aside);
  if (moved && moved.content?.token !== stale?.token) {
    // We moved a fresh lock someone took after our read: put it back (fails harmlessly if a third took the name).
    await link(aside, path).catch(() => undefined);
  }
  await unlink(aside).catch(() => undefined);
}

/** `Locked` by a live holder, or by a lock that cannot be read yet is not stale (said with its file). */
function lockedBy(root: string, path: string, lock: ReadLock): StudioFailure {
  const c = lock.content;
  if (!c) {
    return new StudioFailure(
      'Locked',
      `The memory folder ${root} is locked by a lock file Memory Studio cannot read, ${path} (${lock.problem ?? 'unreadable'}); nothing was written.`,
      {
        path,
        hint: `If no other Memory Studio process is changing this folder, delete ${path} and try again; a lock left untouched for ${LOCK_MAX_AGE_MS / 60_000} minutes is taken over by itself.`,
      },
    );
  }
  const holder = `Memory Studio process ${c.pid} on ${c.hostname} (since ${new Date(c.startedAt).toISOString()})`;
  return new StudioFailure('Locked', `The memory folder ${root} is being changed by ${holder}; nothing was written.`, {
    path: root,
    hint: 'Wait for the other apply to finish and try again.',
  });
}

/**
 * The folders whose lock a process that is gone (or hung) left, whatever home they belong to (a promotion's project
 * folder is no root of the home): its Apply may have left temp files there. `project` says how to sweep it; null
 * for an older lock that does not say.
 */
export async function staleLockRoots(dataDir: string): Promise<{ root: string; project: boolean | null }[]> {
  const dir = join(dataDir, 'locks');
  const names = await readdir(dir).catch(() => [] as string[]);
  const found: { root: string; project: boolean | null }[] = [];
  for (const name of names.filter((n) => n.endsWith('.lock'))) {
    const lock = await readLock(join(dir, name)).catch(() => null);
    // A lock that does not parse names no root: an Apply of that root takes it over once it is stale.
    const content = lock?.content;
    if (lock && content && staleReason(lock, Date.now()) !== null) found.push({ root: content.root, project: content.project ?? null });
  }
  return found;
}

/** Takes the lock of `root`, taking over a stale one; a live holder is `Locked`. `project`: the root is a project folder. */
export async function acquireLockFile(dataDir: string, root: string, nowMs: number, project = false): Promise<HeldLock> {
  const path = lockPathFor(dataDir, root);
  await mkdir(join(dataDir, 'locks'), { recursive: true, mode: PRIVATE_DIR_MODE });
  const content: LockContent = {
    pid: process.pid,
    hostname: hostname(),
    namespace: namespaceId(),
    startedAt: nowMs,
    root,
    token: randomUUID(),
    project,
  };
  let tookOver = false;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await tryCreate(path, content)) return { path, token: content.token, ...(tookOver ? { tookOver } : {}) };
    const existing = await readLock(path);
    if (!existing) continue;
    if (staleReason(existing, Date.now()) === null) throw lockedBy(root, path, existing);
    await takeOver(path, existing.content);
    tookOver = true;
  }
  throw new StudioFailure('Busy', `Could not take the lock of ${root}: other processes kept taking it.`, {
    path: root,
    hint: 'Try again in a moment.',
  });
}

/** Marks the lock as still alive, so its age says how long the holder has been silent. */
export async function touchLockFile(lock: HeldLock): Promise<void> {
  const now = new Date();
  await utimes(lock.path, now, now).catch(() => undefined);
}

/**
 * The token of the lock at `path`, or null when there is none or it cannot be read. Only the token is looked at (a
 * random UUID only its taker knows), so no schema is needed: every apply releases a lock, and zod takes ~45 ms to load.
 */
async function readLockToken(path: string): Promise<string | null> {
  const file = await readRegularFile(path, path, NO_CAP).catch(() => null);
  if (!file) return null;
  try {
    const value: unknown = JSON.parse(file.bytes.toString('utf8'));
    const token = typeof value === 'object' && value !== null ? (value as { token?: unknown }).token : undefined;
    return typeof token === 'string' ? token : null;
  } catch {
    return null;
  }
}

/** Removes the lock only if it is still ours (a takeover after we were presumed hung must not be undone). */
export async function releaseLockFile(lock: HeldLock): Promise<void> {
  if ((await readLockToken(lock.path)) === lock.token) await unlink(lock.path).catch(() => undefined);
}
