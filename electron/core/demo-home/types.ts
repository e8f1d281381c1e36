// Internal data shapes shared by the demo-home generator modules.

export type Outcome = 'success' | 'partial' | 'fail' | 'uncertain';
export type MemoryMode = 'enabled' | 'disabled' | 'polluted';
/** What Phase 1 did with a thread: extracted and consolidated, failed, or never ran. */
export type Stage1State = 'selected' | 'failed' | 'none';

export interface Project {
  key: string;
  name: string;
  cwd: string;
  origin: string;
  language: string;
}

export interface TaskTemplate {
  key: string;
  project: string;
  group: string;
  scope: string;
  reuseRule: string;
  /** Short task description; `{n}` is replaced by the thread's ticket number. */
  title: string;
  /** The model's rollout slug before Codex sanitises it. */
  slug: string;
  ask: string;
  followUp: string;
  summary: string;
  context: string;
  keywords: string[];
  preference: string;
  knowledge: string;
  failure: string;
  steps: string[];
  command: string;
  output: string;
  branch: string | null;
  reply: string;
}

export interface ThreadPlan {
  index: number;
  id: string;
  createdMs: number;
  updatedMs: number;
  project: Project;
  task: TaskTemplate;
  ticket: number;
  outcome: Outcome;
  gitBranch: string | null;
  gitSha: string;
  memoryMode: MemoryMode;
  archived: boolean;
  stage1: Stage1State;
  /** Absolute path of the rollout JSONL. */
  rolloutPath: string;
  /** The same path relative to CODEX_HOME, with `/`. */
  sessionRel: string;
  /** Rollout summary file stem (without `.md`). */
  stem: string;
  sourceUpdatedAt: number;
  generatedAt: number;
  tokensUsed: number;
  failure: { error: string; finishedAt: number; retryRemaining: number } | null;
}

/** A citation block that a session's assistant message ends with. */
export interface CitationPlan {
  citingThreadId: string;
  entries: string[];
  threadIds: string[];
  legacyTag: boolean;
  /** Unix seconds of the message that carries the citation. */
  at: number;
}

/** One file to write, relative to a base directory, with `/`. */
export interface OutFile {
  rel: string;
  data: string | Buffer;
  /** File mode, e.g. 0o755 for scripts; default 0o644. */
  mode?: number;
}
