// Words for a consolidation run's phases, states and engines, shared by the progress panel and the runs list.
import type { EngineName, PhaseState, RunPhase, RunState } from '../../../shared/consolidate';

export const phaseLabels: Record<RunPhase, string> = {
  select: 'Select',
  stage: 'Stage',
  engine: 'Engine',
  validate: 'Validate',
  diff: 'Diff',
};

export const phaseHints: Record<RunPhase, string> = {
  select: 'Codex’s phase-2 selection from its database',
  stage: 'Copy of the root, synced as Codex syncs it',
  engine: 'The engine rewrites the staged files',
  validate: 'Codex’s checks and our lint on the result',
  diff: 'Staging against live becomes a proposal',
};

export const phaseStateLabels: Record<PhaseState['state'], string> = {
  pending: 'waiting',
  running: 'running',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
  skipped: 'skipped',
};

export const runStateLabels: Record<RunState, string> = {
  running: 'Running',
  cancelling: 'Cancelling',
  cancelled: 'Cancelled',
  failed: 'Failed',
  proposed: 'Ready for review',
  unchanged: 'Nothing to consolidate',
};

export const runStateBadge: Record<RunState, string> = {
  running: 'badge-info',
  cancelling: 'badge-warn',
  cancelled: 'badge-muted',
  failed: 'badge-error',
  proposed: 'badge-ok',
  unchanged: 'badge-muted',
};

export const engineLabels: Record<EngineName, string> = {
  builtin: 'Built-in',
  codex: 'Codex CLI',
  openai: 'OpenAI-compatible',
};

export const engineHints: Record<EngineName, string> = {
  builtin: 'Offline and deterministic: rebuilds the summary from the staged inputs with Codex’s templates; no model.',
  codex: 'Runs your installed `codex exec` in the staging folder, sandboxed there, memories off for that run.',
  openai: 'Any OpenAI-compatible endpoint; the key comes from an environment variable or the OS keychain.',
};

/** "1.2 s", "3 min 4 s": how long something took. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

/** Token counts as people read them: 950, 12.3k, 1.2M. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return tokens.toLocaleString();
  if (tokens < 1_000_000) return `${(tokens / 1000).toFixed(tokens < 10_000 ? 1 : 0)}k`;
  return `${(tokens / 1_000_000).toFixed(1)}M`;
}
