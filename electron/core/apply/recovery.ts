// Finishes or undoes applies a crash interrupted, hands back dead leases, and sweeps dead processes' temp files.
import { appendAll } from '../platform/append';
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomeInfo } from '../../../shared/domain';
import { isBaselineDirName } from '../codex/constants';
import { StudioFailure } from '../platform/errors';
import { NO_CAP, readRegularFile } from '../platform/regular-file';
import { moveFile, renameDurable, tempWriterGone } from '../platform/atomic-write';
import { hasDeadLeases, recoverDeadLeases } from '../lease/dead-leases';
import { type Journal, type JournalEntry, deleteJournal, listJournals, sha256 } from './journal';
import { type HeldLock, acquireLockFile, releaseLockFile, staleLockRoots } from './lock-file';
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

/** What recovering a journal needs besides the journal: where to record, and whom to tell about the writes. */
export interface JournalRecovery {
  dataDir: string;
  /** Told, before recovery renames them into place, which contents a finished Apply writes (a service's own writes). */
  noteWrites?: (files: { root: string; relPath: string; content: string | null }[]) => void;
}

export interface JournalOutcome {
  files: 'completed' | 'rolledForward' | 'rolledBack';
  /** The proposal recorded now as its Apply would have (history entry, status `applied`). */
  recorded: boolean;
  /** Why a finished Apply could not be recorded (its journal is kept for the next recovery unless it never can be). */
  unrecorded?: string;
}

async function noteFinished(pending: readonly JournalEntry[], context: JournalRecovery): Promise<void> {
  if (!context.noteWrites) return;
  const files = [];
  for (const e of pending.filter((p) => !p.project))
    files.push({
      root: e.root,
      relPath: e.relPath,
      content: e.temp === null ? null : (await readRegularFile(e.temp, e.temp, NO_CAP)).bytes.toString('utf8'),
    });
  context.noteWrites(files);
}

/**
 * Records the proposal of a journal whose files are all at their proposed content. When it cannot: `keep` (the Studio
 * DB or Codex's lock unavailable now: the next recovery tries again), or not (the proposal was changed since, so this
 * journal can never be recorded: applying the proposal again records it, its files in place counting as done).
 */
async function recordFinished(
  journal: Journal,
  context: JournalRecovery,
): Promise<{ recorded: boolean; unrecorded?: string; keep?: boolean }> {
  if (!journal.record) return { recorded: false };
  try {
    // Loaded on use: the lean CLI commands recover at start and load no review or history code otherwise.
    const { recordRecovered } = await import('./recovered-record.js');
    return { recorded: (await recordRecovered(context.dataDir, journal)) === 'recorded' };
  } catch (error) {
    const changed = error instanceof StudioFailure && error.kind === 'Conflict';
    const why = error instanceof Error ? error.message : String(error);
    const next = changed ? (error.hint ?? '') : 'A later start or Apply records it.';
    return { recorded: false, unrecorded: `${why} ${next}`.trim(), keep: !changed };
  }
}

/**
 * Recovers one journal; the caller holds the locks of its roots. Rolling forward is only done when every target
 * is either done or still at its base with a complete temp file; otherwise the temps are removed and targets
 * already renamed stay at their proposed content (each file is then its base or its proposal, never a mix). A
 * proposal's Apply finished here is recorded as the Apply would have; until that succeeds the journal stays.
 */
export async function recoverJournal(path: string, journal: Journal, context: JournalRecovery): Promise<JournalOutcome> {
  const current = await Promise.all(journal.entries.map((e) => hashOrNull(e.target)));
  const pending = journal.entries.filter((e, i) => current[i] !== e.targetSha256);
  let files: JournalOutcome['files'] = 'completed';
  if (pending.length > 0) {
    const finishable = await Promise.all(pending.map((e) => canFinish(e, current[journal.entries.indexOf(e)] ?? null)));
    if (finishable.every(Boolean)) {
      await noteFinished(pending, context);
      for (const entry of pending) await finishEntry(entry);
      files = 'rolledForward';
    } else {
      files = 'rolledBack';
    }
  }
  for (const entry of journal.entries) {
    if (entry.temp !== null) await unlink(entry.temp).catch(() => undefined);
  }
  const { keep, ...record } = files === 'rolledBack' ? { recorded: false } : await recordFinished(journal, context);
  if (!keep) await deleteJournal(path);
  return { files, ...record };
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

async function lockRoots(
  dataDir: string,
  roots: string[],
  projects: ReadonlySet<string>,
): Promise<{ held: HeldLock[]; busy: Set<string> }> {
  const held: HeldLock[] = [];
  const busy = new Set<string>();
  for (const root of roots) {
    try {
      held.push(await acquireLockFile(dataDir, root, Date.now(), projects.has(root)));
    } catch (error) {
      if (!(error instanceof StudioFailure) || (error.kind !== 'Locked' && error.kind !== 'Busy')) throw error;
      busy.add(root);
    }
  }
  return { held, busy };
}

/** What else recovery looks at: the memory DBs whose lease row may name a dead holder of ours (its record lost). */
export interface RecoveryOptions {
  dbPaths?: readonly string[];
  noteWrites?: JournalRecovery['noteWrites'];
}

/** Every root a journal needs locked: its files' and those of the Codex-DB step it may have to make again. */
function journalRoots(journal: Journal): string[] {
  return [...journal.entries.map((e) => e.root), ...(journal.record?.db?.leases.map((l) => l.root) ?? [])];
}

/** A home's recovery scope: its existing roots, and every memory DB (whose lease row is Codex's global lock). */
export function recoveryScopeOf(home: HomeInfo): { roots: string[]; options: RecoveryOptions } {
  return { roots: home.roots.filter((r) => r.exists).map((r) => r.path), options: { dbPaths: home.roots.map((r) => r.dbPath) } };
}

/**
 * Run at start-up (and by tests after a crash): every journal, dead lease and dead temp file, under the roots' locks. A
 * journal that does not parse stops it before anything is touched (`unreadableJournalFailure`): the temp files it may
 * need to finish its Apply are not swept either.
 */
export async function recoverInterruptedApplies(dataDir: string, roots: string[], options: RecoveryOptions = {}): Promise<RecoveryReport> {
  const report: RecoveryReport = {
    completed: [],
    rolledForward: [],
    rolledBack: [],
    skipped: [],
    removedTempFiles: [],
    releasedLeases: [],
    recorded: [],
    unrecorded: [],
  };
  const journals = await listJournals(dataDir);
  // A dead Apply's lock outside these roots (a promotion's project folder, once its journal is gone) is the only sign
  // of its temp files there: taken over and swept too, a project at its top only, as an Apply would.
  const stale = (await staleLockRoots(dataDir)).filter((l) => l.project !== null && !roots.includes(l.root));
  const projects = new Set(
    [
      ...journals.flatMap((j) => j.journal.entries.filter((e) => e.project).map((e) => e.root)),
      ...stale.filter((l) => l.project).map((l) => l.root),
    ].filter((root) => !roots.includes(root)),
  );
  const allRoots = [...new Set([...roots, ...journals.flatMap((j) => journalRoots(j.journal)), ...stale.map((l) => l.root)])].sort();
  const releaseQueues = await acquireRootQueues(allRoots);
  try {
    const { held, busy } = await lockRoots(dataDir, allRoots, projects);
    try {
      for (const { path, journal } of journals) {
        if (journalRoots(journal).some((root) => busy.has(root))) {
          report.skipped.push(journal.id);
          continue;
        }
        const outcome = await recoverJournal(path, journal, { dataDir, noteWrites: options.noteWrites });
        report[outcome.files].push(journal.id);
        if (outcome.recorded) report.recorded.push(journal.id);
        if (outcome.unrecorded !== undefined) report.unrecorded.push({ id: journal.id, reason: outcome.unrecorded });
      }
      report.releasedLeases.push(...(await recoverDeadLeases(dataDir, options.dbPaths)));
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
 * process that is gone, or Codex's lease row held by one; a dead Apply's temp files come with its lock file, and an Apply taking over that lock sweeps
 * the root itself), so a normal start or Apply takes no extra lock and walks no folder (8,000 entries of a heavy
 * root), and never gets in the way of an Apply running in another process. Run when a Memory Studio process (CLI,
 * serve or app) starts and before each Apply.
 */
export async function recoverLeftovers(dataDir: string, roots: string[], options: RecoveryOptions = {}): Promise<RecoveryReport | null> {
  const journals = await listJournals(dataDir);
  // A stale lock of these roots, or one elsewhere that says what it locked (older locks outside them wait for an Apply).
  const stale = (await staleLockRoots(dataDir)).some((l) => roots.includes(l.root) || l.project !== null);
  if (journals.length === 0 && !stale && !(await hasDeadLeases(dataDir, options.dbPaths))) return null;
  return recoverInterruptedApplies(dataDir, roots, options);
}
