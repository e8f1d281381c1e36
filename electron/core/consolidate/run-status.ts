// The mutable state of one run and how it is reported: phases, progress, log, throttled progress events.
import { runPhases, type EngineName, type RunPhase, type RunState, type RunStatus } from '../../../shared/consolidate';
import type { MemoryVersion } from '../../../shared/domain';
import { toStudioError } from '../platform/errors';
import { maskSecretsInText } from '../lint/mask-secrets';

const LOG_LINES = 200;
const EMIT_EVERY_MS = 100;
/** Share of the whole run each phase stands for (the engine dominates). */
const WEIGHTS: Record<RunPhase, number> = { select: 0.05, stage: 0.2, engine: 0.55, validate: 0.1, diff: 0.1 };

export class RunTracker {
  readonly status: RunStatus;
  private lastEmit = 0;
  private pending: NodeJS.Timeout | null = null;

  constructor(
    id: string,
    version: MemoryVersion,
    engine: EngineName,
    model: string | null,
    private readonly emit: (status: RunStatus) => void,
    now = Date.now(),
  ) {
    this.status = {
      id,
      version,
      engine,
      model,
      state: 'running',
      phase: 'select',
      phases: runPhases.map((phase) => ({ phase, state: 'pending', startedAt: null, endedAt: null, detail: null })),
      progress: 0,
      message: 'Starting…',
      log: [],
      startedAt: now,
      endedAt: null,
      stagingDir: null,
      proposalId: null,
      validation: null,
      error: null,
      lease: { held: false, leaseUntil: null, note: '' },
    };
  }

  snapshot(): RunStatus {
    return structuredClone(this.status);
  }

  private phaseState(phase: RunPhase) {
    return this.status.phases.find((p) => p.phase === phase) as RunStatus['phases'][number];
  }

  begin(phase: RunPhase, message: string): void {
    this.status.phase = phase;
    const p = this.phaseState(phase);
    p.state = 'running';
    p.startedAt = Date.now();
    this.progress(message, 0, true);
  }

  /** Progress inside the current phase: `fraction` 0..1 of it. */
  progress(message: string, fraction?: number, force = false): void {
    this.status.message = message;
    if (fraction !== undefined) {
      let before = 0;
      for (const phase of runPhases) {
        if (phase === this.status.phase) break;
        before += WEIGHTS[phase];
      }
      const f = Math.min(1, Math.max(0, fraction));
      this.status.progress = Math.min(1, Math.max(this.status.progress, before + WEIGHTS[this.status.phase] * f));
    }
    this.schedule(force);
  }

  end(phase: RunPhase, detail: string, state: 'done' | 'skipped' | 'failed' = 'done'): void {
    const p = this.phaseState(phase);
    p.state = state;
    p.endedAt = Date.now();
    p.detail = detail;
    this.progress(detail, 1, true);
  }

  log(line: string): void {
    // Engine output can quote memory text: the log (shown in the app and the CLI) never holds a secret in clear.
    const masked = maskSecretsInText(line);
    this.status.log.push(masked.length > 500 ? `${masked.slice(0, 500)}…` : masked);
    if (this.status.log.length > LOG_LINES) this.status.log.splice(0, this.status.log.length - LOG_LINES);
    this.schedule(false);
  }

  finish(state: Exclude<RunState, 'running' | 'cancelling'>, message: string, error?: unknown): void {
    this.status.state = state;
    this.status.message = message;
    this.status.endedAt = Date.now();
    if (state === 'proposed' || state === 'unchanged') this.status.progress = 1;
    const current = this.phaseState(this.status.phase);
    if (current.state === 'running') {
      current.state = state === 'cancelled' ? 'cancelled' : state === 'failed' ? 'failed' : 'done';
      current.endedAt = Date.now();
    }
    if (error !== undefined) this.status.error = toStudioError(error);
    this.schedule(true);
  }

  private schedule(force: boolean): void {
    const now = Date.now();
    if (force || now - this.lastEmit >= EMIT_EVERY_MS) {
      if (this.pending) clearTimeout(this.pending);
      this.pending = null;
      this.lastEmit = now;
      this.emit(this.snapshot());
    } else if (!this.pending) {
      this.pending = setTimeout(() => this.schedule(true), EMIT_EVERY_MS - (now - this.lastEmit));
      this.pending.unref();
    }
  }
}
