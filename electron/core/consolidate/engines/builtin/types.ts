// Data shapes of the builtin consolidation engine: what it reads from staging and what it reports.
import type { MemoryVersion } from '../../../../../shared/domain';
import type { WorkspaceLabel } from './parse';

/** One labelled bullet list of a rollout task (`Preference signals:`, `Reusable knowledge:`, ...). */
export interface RolloutTask {
  title: string;
  outcome: string | null;
  preferences: string[];
  knowledge: string[];
  failures: string[];
}

/** `rollout_summaries/<file>`: Codex's plain header plus what the builtin engine uses of the summary text. */
export interface RolloutInput {
  /** File name inside `rollout_summaries/` (with `.md`). */
  file: string;
  threadId: string;
  updatedAt: string;
  /** Milliseconds of `updatedAt` (NaN-free: 0 when unparsable). */
  updatedMs: number;
  rolloutPath: string;
  cwd: string;
  gitBranch: string | null;
  /** The `# <sentence>` title, or the first line of the free-form text. */
  sentence: string;
  tasks: RolloutTask[];
}

/** The per-thread front matter of `raw_memories.md` (v1). */
export interface RawThreadInput {
  threadId: string;
  description: string | null;
  task: string | null;
  taskGroup: string | null;
  taskOutcome: string | null;
  cwd: string | null;
  keywords: string[];
}

/** `extensions/ad_hoc/notes/<file>` (authoritative user notes). */
export interface NoteInput {
  /** Root-relative path. */
  path: string;
  file: string;
  /** LF-normalised text. */
  text: string;
}

/** One imported project under `extensions/external_agent_import/resources/<key>/`. */
export interface ImportInput {
  key: string;
  /** From `scope.json`; null when missing or unreadable. */
  cwd: string | null;
  /** Root-relative paths of its markdown files, sorted (the index `MEMORY.md` first when present); never empty. */
  files: string[];
  /** `name` / `description` front matter of the topic files, or index link texts. */
  topics: string[];
}

/** Resources of any other active extension (a folder with `instructions.md`). */
export interface ExtensionInput {
  name: string;
  /** Root-relative paths, sorted. */
  files: string[];
}

/** Everything the engine reads from the staging folder. */
export interface StagedInputs {
  version: MemoryVersion;
  rollouts: RolloutInput[];
  /** Files in `rollout_summaries/` without Codex's `thread_id:` header (left out). */
  skipped: string[];
  raw: Map<string, RawThreadInput>;
  summary: string | null;
  memoryMd: string | null;
  notes: NoteInput[];
  imports: ImportInput[];
  extensions: ExtensionInput[];
  /** Root-relative `skills/<name>/SKILL.md` paths that exist. */
  skills: string[];
  /**
   * What changed since Codex's last consolidation, from staging's `phase2_workspace_diff.md` (A/M/D by path); null
   * when staging has none.
   */
  workspaceChanges: ReadonlyMap<string, WorkspaceLabel> | null;
  /** Inputs whose free text held a secret, redacted as read (notes, imported topics, the summary); root-relative. */
  redactedInputs: string[];
}

/** What a builtin run produced and how hard it had to compact. */
export interface BuiltinReport {
  version: MemoryVersion;
  rollouts: number;
  scopes: number;
  recentEntries: number;
  olderEntries: number;
  notes: number;
  imports: number;
  keptPreferences: number;
  keptTips: number;
  keptProfile: boolean;
  keptBlocks: number;
  /**
   * How memory_summary.md was made: merged into the existing file (entries of "What's in Memory" kept byte for byte,
   * added, removed because their inputs went or changed, left out to fit the budget), or rebuilt from the inputs.
   */
  summary: { mode: 'merged' | 'rebuilt'; kept: number; added: number; removed: number; trimmed: number };
  /** Rebuilt summaries: 0 = no compaction; higher = more compacted. */
  compactionLevel: number;
  summaryBytes: number;
  memoryMdBytes: number | null;
  warnings: string[];
}

export interface BuiltinOutput {
  files: Map<string, string>;
  report: BuiltinReport;
}
