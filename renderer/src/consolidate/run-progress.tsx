// One run as it goes: overall progress, the five phases, the current message, the engine log, then its end state.
import { useEffect, useRef } from 'react';
import type { PhaseState, RunStatus, Validation } from '../../../shared/consolidate';
import { ErrorPanel } from '../common/error-panel';
import { isActive } from './run-state';
import { engineLabels, formatDuration, phaseHints, phaseLabels, phaseStateLabels, runStateBadge, runStateLabels } from './run-labels';
import { toMs } from './selection-table';

const phaseBadge: Record<PhaseState['state'], string> = {
  pending: 'badge-muted',
  running: 'badge-info',
  done: 'badge-ok',
  failed: 'badge-error',
  cancelled: 'badge-warn',
  skipped: 'badge-muted',
};

function Phases({ phases }: { phases: readonly PhaseState[] }) {
  return (
    <ol className="run-phases" aria-label="Phases">
      {phases.map((phase) => (
        <li
          key={phase.phase}
          className={`run-phase run-phase-${phase.state}`}
          data-testid="run-phase"
          data-phase={phase.phase}
          data-state={phase.state}
          aria-current={phase.state === 'running' ? 'step' : undefined}
        >
          <span className="run-phase-head">
            {phase.state === 'running' ? <span className="spinner spinner-small" aria-hidden="true" /> : null}
            <strong>{phaseLabels[phase.phase]}</strong>
            <span className={`badge badge-small ${phaseBadge[phase.state]}`}>{phaseStateLabels[phase.state]}</span>
            {phase.startedAt !== null && phase.endedAt !== null ? (
              <span className="muted small">{formatDuration(toMs(phase.endedAt) - toMs(phase.startedAt))}</span>
            ) : null}
          </span>
          <span className="muted small">{phase.detail ?? phaseHints[phase.phase]}</span>
        </li>
      ))}
    </ol>
  );
}

function ProgressBar({ run }: { run: RunStatus }) {
  const percent = Math.round(run.progress * 100);
  return (
    <div className="run-progress-row">
      <div
        className={`run-bar run-bar-${run.state}`}
        role="progressbar"
        aria-label="Overall progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        data-testid="run-progress"
      >
        <div className="run-bar-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="num small">{percent}%</span>
    </div>
  );
}

/** The engine's lines, newest last, kept scrolled to the end while new ones arrive. */
function RunLog({ lines, active }: { lines: readonly string[]; active: boolean }) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = ref.current.scrollHeight;
  }, [lines]);
  return (
    <details className="run-log-box" open>
      <summary>
        Engine log <span className="muted">{lines.length}</span>
      </summary>
      <pre ref={ref} className="run-log" tabIndex={0} aria-label="Engine log" data-testid="run-log">
        {lines.length > 0 ? lines.join('\n') : active ? 'No engine output yet.' : 'No engine output.'}
      </pre>
    </details>
  );
}

export function ValidationList({ validation }: { validation: Validation }) {
  return (
    <section
      className={validation.ok ? 'run-validation' : 'run-validation notice notice-warn'}
      aria-labelledby="validation-title"
      data-testid="run-validation"
      data-ok={validation.ok}
    >
      <h3 id="validation-title">
        Validation {validation.ok ? <span className="badge badge-ok">passed</span> : <span className="badge badge-error">failed</span>}
      </h3>
      {!validation.ok ? (
        <p>The result cannot be applied until these are fixed. You can edit the result in the review, then apply it.</p>
      ) : null}
      {validation.diagnostics.length > 0 ? (
        <ul className="plain-list run-diagnostics">
          {validation.diagnostics.map((d, index) => (
            <li key={`${d.path}:${d.line}:${d.rule}:${index}`} data-testid="run-diagnostic" data-severity={d.severity}>
              <span
                className={`badge badge-small ${d.severity === 'error' ? 'badge-error' : d.severity === 'warning' ? 'badge-warn' : 'badge-info'}`}
              >
                {d.severity}
              </span>{' '}
              <code>
                {d.path}:{d.line}
              </code>{' '}
              {d.message} <span className="muted">({d.rule})</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function EndState({ run, onReview }: { run: RunStatus; onReview: (proposalId: string) => void }) {
  switch (run.state) {
    case 'proposed':
      return (
        <div className="notice notice-info run-end" data-testid="run-end" data-state="proposed" role="status">
          <p>The result is ready: nothing is written until you apply it in the review.</p>
          {run.proposalId ? (
            <button
              type="button"
              className="button button-primary"
              data-testid="review-result"
              onClick={() => run.proposalId && onReview(run.proposalId)}
            >
              Review the result
            </button>
          ) : null}
        </div>
      );
    case 'unchanged':
      return (
        <p className="notice notice-info run-end" data-testid="run-end" data-state="unchanged" role="status">
          {/^nothing to consolidate/i.test(run.message) ? run.message : `Nothing to consolidate: ${run.message}`}
        </p>
      );
    case 'cancelled':
      return (
        <p className="notice notice-info run-end" data-testid="run-end" data-state="cancelled" role="status">
          Cancelled; your memory files were not touched.
        </p>
      );
    case 'failed':
      return (
        <div className="run-end" data-testid="run-end" data-state="failed">
          <ErrorPanel
            compact
            title="The run failed; your memory files were not touched"
            error={run.error ?? { kind: 'Internal', message: run.message }}
          />
        </div>
      );
    default:
      return null;
  }
}

export interface RunPanelProps {
  run: RunStatus;
  cancelling: boolean;
  onCancel: () => void;
  onReview: (proposalId: string) => void;
}

export function RunPanel({ run, cancelling, onCancel, onReview }: RunPanelProps) {
  const active = isActive(run);
  const ended = run.endedAt !== null ? ` · took ${formatDuration(toMs(run.endedAt) - toMs(run.startedAt))}` : '';
  return (
    <section className="card run-panel" aria-labelledby="run-title" data-testid="run-panel" data-run-id={run.id} data-state={run.state}>
      <h2 id="run-title">
        Run <code>{run.id}</code>{' '}
        <span className={`badge ${runStateBadge[run.state]}`} data-testid="run-state">
          {runStateLabels[run.state]}
        </span>
        {active ? (
          <button
            type="button"
            className="button button-small run-cancel"
            data-testid="cancel-run"
            aria-keyshortcuts="Escape"
            disabled={cancelling || run.state === 'cancelling'}
            onClick={onCancel}
          >
            {run.state === 'cancelling' || cancelling ? 'Cancelling…' : 'Cancel'} <kbd>Esc</kbd>
          </button>
        ) : null}
      </h2>
      <p className="muted small">
        {run.version} · {engineLabels[run.engine]}
        {run.model ? ` · ${run.model}` : ''}
        {ended}
        {run.lease.note ? ` · ${run.lease.note}` : ''}
      </p>
      <ProgressBar run={run} />
      {/* While running the message is the live region; at the end the end-state notice says it (once). */}
      <p className="run-message" role="status" aria-live="polite" data-testid="run-message">
        {active ? run.message : null}
      </p>
      <Phases phases={run.phases} />
      <EndState run={run} onReview={onReview} />
      {run.validation ? <ValidationList validation={run.validation} /> : null}
      <RunLog lines={run.log} active={active} />
    </section>
  );
}
