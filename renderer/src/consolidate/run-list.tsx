// This session's consolidation runs, newest first: show one again, or open its proposal in the review.
import type { RunStatus } from '../../../shared/consolidate';
import { formatTime } from '../lib/format';
import { engineLabels, runStateBadge, runStateLabels } from './run-labels';
import { toMs } from './selection-table';

export interface RunListProps {
  runs: readonly RunStatus[];
  shownId: string | null;
  onShow: (id: string) => void;
  onReview: (proposalId: string) => void;
}

export function RunList({ runs, shownId, onShow, onReview }: RunListProps) {
  return (
    <section className="card" aria-labelledby="runs-title" data-testid="run-list">
      <h2 id="runs-title">
        Runs of this session <span className="muted">{runs.length}</span>
      </h2>
      {runs.length === 0 ? (
        <p className="muted small">No run yet. Pick a root and an engine, then Start (or press Enter).</p>
      ) : (
        <table className="counts-table run-table">
          <thead>
            <tr>
              <th scope="col">Started</th>
              <th scope="col">Root</th>
              <th scope="col">Engine</th>
              <th scope="col">State</th>
              <th scope="col">Message</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr
                key={run.id}
                data-testid="run-row"
                data-run-id={run.id}
                data-state={run.state}
                aria-current={run.id === shownId ? 'true' : undefined}
              >
                <td>{formatTime(toMs(run.startedAt))}</td>
                <td>{run.version}</td>
                <td>
                  {engineLabels[run.engine]}
                  {run.model ? <span className="muted"> · {run.model}</span> : null}
                </td>
                <td>
                  <span className={`badge badge-small ${runStateBadge[run.state]}`}>{runStateLabels[run.state]}</span>
                </td>
                <td className="run-table-message">{run.error?.message ?? run.message}</td>
                <td className="run-table-actions">
                  {run.id === shownId ? null : (
                    <button type="button" className="button button-small" aria-label={`Show run ${run.id}`} onClick={() => onShow(run.id)}>
                      Show
                    </button>
                  )}
                  {run.proposalId ? (
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={`Review the result of run ${run.id}`}
                      onClick={() => run.proposalId && onReview(run.proposalId)}
                    >
                      Review
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
