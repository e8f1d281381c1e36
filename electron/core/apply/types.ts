// The Apply engine's public data shapes: the plan it writes, what it reports, and the test-only fault hooks.
import type { FaultCode } from '../platform/atomic-write';
import type { HeldLease } from '../lease/codex-lease';
import type { JournalRecord } from './journal';

export type MemoryVersion = 'v1' | 'v2';

export interface ApplyFile {
  version: MemoryVersion;
  /**
   * `project`: a project's AGENTS.md (`root` is the project folder, checked by project-file.ts; never created, never
   * swept recursively); it takes the folder's lock file but not Codex's lease, which guards memory roots only.
   */
  target?: 'memory' | 'project' | 'agent-config';
  /** Absolute memory root (`<CODEX_HOME>/memories` or `memories_v2`), or the project folder. */
  root: string;
  relPath: string;
  /** SHA-256 (hex) of the bytes the proposal was made against; null = the file must be absent. */
  baseSha256: string | null;
  /** New content; null = delete (moved into the data folder's trash). */
  content: string | null;
}

export interface ApplyPlan {
  /** Proposal id: names the journal and the trash folder, so it must be a plain file name. */
  id: string;
  files: ApplyFile[];
  /** The memory DB of each touched version, whose `jobs` row is Codex's global lease. */
  dbPaths: Partial<Record<MemoryVersion, string>>;
  /** The home's memory roots: a project file may not sit inside one. */
  memoryRoots?: string[];
  /**
   * Set when the proposal also changes Codex's DBs (e.g. "forget this session"): the roots of these versions are
   * locked and their leases held even when no file of theirs changes, and a plan without files is accepted.
   */
  db?: { versions: { version: MemoryVersion; root: string; /** false: root locked, no lease (a repair's swap). */ lease?: false }[] };
  /**
   * A proposal's Apply: journaled, so that recovery finishing this Apply after a crash records it as the Apply would
   * (the history entry, the proposal `applied`); a plan without it (tests, tools) is only finished or undone.
   */
  record?: JournalRecord;
}

export interface AppliedFile {
  version: MemoryVersion;
  relPath: string;
  beforeSha256: string | null;
  afterSha256: string | null;
  before: string | null;
}

/** How Codex's lease row was left: previous state restored, set to `pending`, or no memory DB to coordinate with. */
export type LeaseRelease = 'restored' | 'pending' | 'absent';

export interface ApplyOutcome {
  applied: AppliedFile[];
  lease: { version: MemoryVersion; previous: LeaseRelease }[];
}

export type { FaultCode };

/** Tests only: make a step fail as the OS would (we run as root, so chmod cannot provoke these). */
export interface FaultInjection {
  /** Fail while writing the temp file of plan.files[file] after `afterBytes` bytes (default 0). */
  failWriteAt?: { file: number; afterBytes?: number; code: FaultCode };
  /** Fail the n-th commit step (rename or move to trash), counted from 0 in plan order. */
  failRenameAt?: number;
  /**
   * Called before each commit step, after every earlier check (a test's second writer edits the target here: the
   * step's own last check, right before its rename, must see it).
   */
  beforeRename?: (index: number) => Promise<void> | void;
  /** Called after each commit step; lets a test observe or pause between renames. */
  afterRename?: (index: number) => void;
  /** Called once everything is written and recorded, before the leases and locks are let go (a test fills the disk here). */
  beforeRelease?: () => void;
}

export interface ApplyOptions {
  dataDir: string;
  /** Milliseconds since the epoch (Date.now by default); Codex's columns use whole seconds of it. */
  now?: () => number;
  /** Runs while every lock is still held, after every file is in place; the lead records history here. */
  onCommitted?: (outcome: ApplyOutcome) => Promise<void> | void;
  /**
   * Codex-DB changes: runs synchronously once every file is in place, every lock and lease still held, before
   * onCommitted. It returns the versions whose global job must be left `pending` (enqueue consolidation). A throw
   * undoes the files, so a failed DB step leaves nothing changed.
   */
  commitDb?: () => MemoryVersion[];
  /** A lease this process already holds on the DB (a consolidation run's, lent through the coordination object). */
  borrowLease?: (dbPath: string) => HeldLease | null;
  faults?: FaultInjection;
}

export interface RecoveryReport {
  /** Journals whose targets were all at their proposed content already. */
  completed: string[];
  /** Journals finished by renaming the remaining temp files into place. */
  rolledForward: string[];
  /** Journals abandoned: remaining temps removed, renamed targets left at their proposed content. */
  rolledBack: string[];
  /** Journals left alone because another live process holds the root's lock. */
  skipped: string[];
  /** Temp files of dead processes removed from the roots. */
  removedTempFiles: string[];
  /** Codex lease rows of dead Memory Studio processes handed back. */
  releasedLeases: string[];
  /** Proposals whose Apply recovery finished and recorded (history entry, status `applied`) as the Apply would have. */
  recorded: string[];
  /**
   * Finished Applies that could not be recorded: the Studio DB or Codex's lock unavailable (kept for the next run), or
   * the proposal changed since (applying it again records it).
   */
  unrecorded: { id: string; reason: string }[];
}
