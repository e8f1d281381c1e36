// Finishes or undoes applies a crash interrupted, hands back dead leases, and sweeps dead processes' temp files.
import { appendAll } from '../platform/append';
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isBaselineDirName } from '../codex/constants';
import { StudioFailure } from '../platform/errors';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { moveFile, renameDurable, tempWriterGone } from '../platform/atomic-write';
import { hasDeadLeases, recoverDeadLeases } from './codex-lease';
import { type Journal, type JournalEntry, deleteJournal, listJournals, sha256 } from './journal';
import { type HeldLock, acquireLockFile, hasStaleLock, releaseLockFile } from './lock-file';
import { acquireRootQueues } from './root-queue';
import type { RecoveryReport } from './types';

async function hashOrNull(path: string): Promise<string | null> {
  try {
    return sha256((await readRegularFile(path, path, NO_CAP)).bytes);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** An entry can still be finished when its target is untouched since the journal and its temp file is complete. */
async function canFinish(entry: JournalEntry, current: string | null): Promise<boolean> {
  if (current !== entry.baseSha256) return false;
  if (entry.temp === null) return true;
  return (await hashOrNull(entry.temp)) === entry.targetSha256;
}

async function finishEntry(entry: JournalEntry): Promise<void> {
  if (entry.temp !== null) {
    await renameDurable(entry.temp, entry.target);
  } else if (entry.trash !== null) {
    await moveFile(entry.target, entry.trash);
  }
}

/**
 * Recovers one journal; the caller holds the locks of its roots. Rolling forward is only done when every target
 * is either done or still at its base with a complete temp file; otherwise the temps are removed and targets
 * already renamed stay at their proposed content (each file is then its base or its proposal, never a mix).
 */
export async function recoverJournal(path: string, journal: Journal): Promise<'completed' | 'rolledForward' | 'rolledBack'> {
  const current = await Promise.all(journal.entries.map((e) => hashOrNull(e.target)));
  const pending = journal.entries.filter((e, i) => current[i] !== e.targetSha256);
  let outcome: 'completed' | 'rolledForward' | 'rolledBack' = 'completed';
  if (pending.length > 0) {
    const finishable = await Promise.all(pending.map((e) => canFinish(e, current[journal.entries.indexOf(e)] ?? null)));
    if (finishable.every(Boolean)) {
      for (const entry of pending) await finishEntry(entry);
      outcome = 'rolledForward';
    } else {
      outcome = 'rolledBack';
    }
  }
  for (const entry of journal.entries) {
    if (entry.temp !== null) await unlink(entry.temp).catch(() => undefined);
  }
  await deleteJournal(path);
  return outcome;
}

/**
 * Temp files of Apply (TEMP_FILE_PATTERN) whose process, of this namespace, is gone; never descends into `.git` or
 * symlinks. `shallow` (a project folder, where Apply only ever writes AGENTS.md at the top) looks at the top only.
 */
export async function sweepTempFiles(root: string, shallow = false): Promise<string[]> {
  const removed: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!shallow && !isBaselineDirName(entry.name)) await walk(full);
        continue;
      }
      if (entry.isFile() && tempWriterGone(entry.name) === true) {
        await unlink(full).catch(() => undefined);
        removed.push(full);
      }
    }
  };
  await walk(root);
  return removed;
}

async function lockRoots(dataDir: string, roots: string[]): Promise<{ held: HeldLock[]; busy: Set<string> }> {
  const held: HeldLock[] = [];
  const busy = new Set<string>();
  for (const root of roots) {
    try {
      held.push(await acquireLockFile(dataDir, root, Date.now()));
    } catch (error) {
      if (!(error instanceof StudioFailure) || (error.kind !== 'Locked' && error.kind !== 'Busy')) throw error;
      busy.add(root);
    }
  }
  return { held, busy };
}

/** Run at start-up (and by tests after a crash): every journal, dead lease and dead temp file, under the roots' locks. */
export async function recoverInterruptedApplies(dataDir: string, roots: string[]): Promise<RecoveryReport> {
  const report: RecoveryReport = {
    completed: [],
    rolledForward: [],
    rolledBack: [],
    skipped: [],
    removedTempFiles: [],
    releasedLeases: [],
  };
  const journals = await listJournals(dataDir);
  const allRoots = [...new Set([...roots, ...journals.flatMap((j) => j.journal.entries.map((e) => e.root))])].sort();
  const releaseQueues = await acquireRootQueues(allRoots);
  try {
    const { held, busy } = await lockRoots(dataDir, allRoots);
    try {
      for (const { path, journal } of journals) {
        if (journal.entries.some((e) => busy.has(e.root))) {
          report.skipped.push(journal.id);
          continue;
        }
        report[await recoverJournal(path, journal)].push(journal.id);
      }
      report.releasedLeases.push(...(await recoverDeadLeases(dataDir)));
      const projects = new Set(journals.flatMap((j) => j.journal.entries.filter((e) => e.project).map((e) => e.root)));
      for (const root of allRoots.filter((r) => !busy.has(r)))
        appendAll(report.removedTempFiles, await sweepTempFiles(root, projects.has(root) && !roots.includes(root)));
    } finally {
      for (const lock of held.reverse()) await releaseLockFile(lock);
    }
  } finally {
    releaseQueues();
  }
  return report;
}

/**
 * The same recovery, but only when a crash left something behind (a journal, a lease record or a lock file of a
 * process that is gone; a dead Apply's temp files come with its lock file, and an Apply taking over that lock sweeps
 * the root itself), so a normal start or Apply takes no extra lock and walks no folder (8,000 entries of a heavy
 * root), and never gets in the way of an Apply running in another process. Run when a Memory Studio process (CLI,
 * serve or app) starts and before each Apply.
 */
export async function recoverLeftovers(dataDir: string, roots: string[]): Promise<RecoveryReport | null> {
  const journals = await listJournals(dataDir);
  const stale = await Promise.all(roots.map((root) => hasStaleLock(dataDir, root)));
  if (journals.length === 0 && !stale.some(Boolean) && !(await hasDeadLeases(dataDir))) return null;
  return recoverInterruptedApplies(dataDir, roots);
}
