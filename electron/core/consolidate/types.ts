// The pieces of a consolidation run and how they fit: selection (select.ts), staging (stage.ts), engines
// (engines/*), validation (validate.ts) and the run orchestrator (run.ts) that drives them under Codex's lease.
import type { DbProblem } from '../../../shared/health';
import type { MemoryVersion } from '../../../shared/domain';
import type { EngineName, EngineSettings, Validation } from '../../../shared/consolidate';
import type { HiddenSecrets } from './hidden-secrets';

/** One stage-1 row as Codex's phase 2 reads it, with everything the workspace sync needs to write its files. */
export interface Phase2Row {
  threadId: string;
  sourceUpdatedAt: number;
  rawMemory: string;
  rolloutSummary: string;
  rolloutSlug: string | null;
  usageCount: number | null;
  lastUsage: number | null;
  selectedForPhase2: boolean;
  selectedForPhase2SourceUpdatedAt: number | null;
  /** From the state DB's `threads` (null when the thread is unknown there). */
  rolloutPath: string | null;
  cwd: string | null;
  gitBranch: string | null;
}

export interface Phase2Selection {
  version: MemoryVersion;
  /** The selected rows in thread_id ASC order (as Codex returns them). */
  rows: Phase2Row[];
  eligible: number;
  excludedNotEnabled: number;
  limit: number;
  maxUnusedDays: number;
  /** max(claimed watermark, newest source_updated_at), as Codex computes `new_watermark`. */
  newWatermark: number;
  notes: string[];
  /**
   * Set when the selection could not be read (a DB missing, locked or damaged, no thread catalog): the empty row list
   * then means "unknown", not "nothing selected", and a run must stop before staging (it would delete every summary).
   */
  blocked: string | null;
  /** The DB problem behind `blocked`, when one is known: the run's failure carries its fault (missing, locked, damaged…). */
  blockedBy?: DbProblem | null;
}

/** Progress inside a phase: a sentence and, when known, the fraction of that phase done. */
export type ProgressFn = (message: string, fraction?: number) => void;

export interface StageResult {
  stagingRoot: string;
  /** Files the sync wrote or removed in staging, root-relative. */
  synced: { added: string[]; removed: string[]; rewritten: string[] };
  /** Whether the staged workspace differs from the live root's git baseline (Codex skips its agent when it does not). */
  workspaceChanged: boolean;
  /** Staged files whose secrets were written as `[REDACTED_SECRET]` before any engine ran (what and where, never the secret). */
  hidden: HiddenSecrets[];
  /** What staging skipped or could not do (symlinks left out, no baseline, git missing), one sentence each. */
  notes: string[];
}

/** What an engine is given: it may write only inside `stagingRoot`. */
export interface EngineRun {
  version: MemoryVersion;
  stagingRoot: string;
  settings: EngineSettings;
  /** The consolidation instructions (Codex's rules for this version, plus extension blocks). */
  instructions: string;
  signal: AbortSignal;
  progress: ProgressFn;
  /** A line for the run's log (commands the agent ran, stream events). */
  log: (line: string) => void;
  /** Environment for child processes and API keys (process.env by default). */
  env: NodeJS.ProcessEnv;
  /** The API key for the openai engine, resolved by the host (environment variable or OS keychain). */
  apiKey?: string | null;
}

export interface EngineResult {
  engine: EngineName;
  model: string | null;
  /** Files the engine wrote in staging (root-relative), as far as it knows. */
  wrote: string[];
  usage?: { inputTokens: number; outputTokens: number };
  message: string;
}

export type Engine = (run: EngineRun) => Promise<EngineResult>;

export type { Validation };
