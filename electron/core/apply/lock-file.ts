// Cross-process lock file per memory root in the data folder, with stale detection by pid and age.
import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { link, mkdir, open, rename, unlink, utimes } from 'node:fs/promises';
import { StudioFailure } from '../platform/errors';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { deadInThisNamespace, namespaceId } from '../platform/host-identity';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../platform/private-files';

/** A holder that has not refreshed its lock for this long is presumed hung (heartbeats refresh it every 30 s). */
export const LOCK_MAX_AGE_MS = 10 * 60 * 1000;

interface LockContent {
  pid: number;
  hostname: string;
  /** `namespaceId()`: a pid is only checked in its own machine, boot and PID namespace (absent in older locks). */
  namespace?: string;
  startedAt: number;
  root: string;
  token: string;
}

export interface HeldLock {
  path: string;
  token: string;
  /** A stale lock (a dead or silent holder's) was taken over: its temp files may still be in the folder. */
  tookOver?: boolean;
}

export function lockPathFor(dataDir: string, root: string): string {
  return join(dataDir, 'locks', `${createHash('sha256').update(root).digest('hex')}.lock`);
}

async function readLock(path: string): Promise<{ content: LockContent | null; mtimeMs: number } | null> {
  try {
    const { bytes, info } = await readRegularFile(path, path, NO_CAP);
    const text = bytes.toString('utf8');
    let content: LockContent | null = null;
    try {
      content = JSON.parse(text) as LockContent;
    } catch {
      content = null;
    }
    return { content, mtimeMs: info.mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Stale: a dead pid on this host, a holder silent for longer than the max age, or content we cannot read. */
function staleReason(lock: { content: LockContent | null; mtimeMs: number }, nowMs: number): string | null {
  const c = lock.content;
  if (!c || typeof c.pid !== 'number') return 'unreadable';
  if (deadInThisNamespace(c.pid, c.namespace ?? (c.hostname === hostname() ? namespaceId() : null))) return `process ${c.pid} is gone`;
  if (nowMs - lock.mtimeMs > LOCK_MAX_AGE_MS) return 'too old';
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

function describeHolder(c: LockContent | null): string {
  if (!c) return 'another Memory Studio process';
  return `Memory Studio process ${c.pid} on ${c.hostname} (since ${new Date(c.startedAt).toISOString()})`;
}

/** A lock file of `root` is left by a process that is gone (or hung): an Apply may have been cut short there. */
export async function hasStaleLock(dataDir: string, root: string): Promise<boolean> {
  const existing = await readLock(lockPathFor(dataDir, root)).catch(() => null);
  return existing !== null && staleReason(existing, Date.now()) !== null;
}

/** Takes the lock of `root`, taking over a stale one; a live holder is `Locked`. */
export async function acquireLockFile(dataDir: string, root: string, nowMs: number): Promise<HeldLock> {
  const path = lockPathFor(dataDir, root);
  await mkdir(join(dataDir, 'locks'), { recursive: true, mode: PRIVATE_DIR_MODE });
  const content: LockContent = {
    pid: process.pid,
    hostname: hostname(),
    namespace: namespaceId(),
    startedAt: nowMs,
    root,
    token: randomUUID(),
  };
  let tookOver = false;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await tryCreate(path, content)) return { path, token: content.token, ...(tookOver ? { tookOver } : {}) };
    const existing = await readLock(path);
    if (!existing) continue;
    if (staleReason(existing, Date.now()) === null) {
      throw new StudioFailure(
        'Locked',
        `The memory folder ${root} is being changed by ${describeHolder(existing.content)}; nothing was written.`,
        {
          path: root,
          hint: 'Wait for the other apply to finish and try again.',
        },
      );
    }
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

/** Removes the lock only if it is still ours (a takeover after we were presumed hung must not be undone). */
export async function releaseLockFile(lock: HeldLock): Promise<void> {
  const current = await readLock(lock.path).catch(() => null);
  if (current?.content?.token === lock.token) await unlink(lock.path).catch(() => undefined);
}
