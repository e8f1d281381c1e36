// Stage-1 (Phase 1) extraction jobs of one version: counts by status and every failed or retrying job with its error.
import type { Stage1JobIssue, Stage1Jobs, Stage1RetryState, UnixTime } from '../../../shared/health';
import { baseName, shortId } from '../lib/format';
import { TimeText } from './time-fact';

export interface Stage1JobsViewProps {
  jobs: Stage1Jobs | null;
  now: UnixTime;
  onOpenSession: (threadId: string) => void;
}

const retryText: Record<Stage1RetryState, string> = {
  backoff: 'waiting to retry',
  due: 'retries at the next Codex start',
  exhausted: 'no retries left: Codex gives up on this thread',
  'new-input': 'retries: the thread changed since',
  'lease-expired': 'the worker vanished; the lease has expired',
};

const statusOrder = ['pending', 'running', 'done', 'error', 'other'] as const;

function Issue({ issue, now, onOpenSession }: { issue: Stage1JobIssue; now: UnixTime; onOpenSession: (threadId: string) => void }) {
  return (
    <li className="failed-job" data-testid="failed-job" data-thread-id={issue.threadId} data-retry-state={issue.retryState}>
      <div className="failed-job-head">
        <span className={`badge badge-small ${issue.status === 'error' ? 'badge-error' : 'badge-warning'}`}>{issue.status}</span>
        <button
          type="button"
          className="link-button"
          title={`Open session ${issue.threadId}`}
          onClick={() => onOpenSession(issue.threadId)}
        >
          thread {shortId(issue.threadId)}
        </button>
        {issue.cwd ? (
          <span className="muted" title={issue.cwd}>
            {baseName(issue.cwd)}
          </span>
        ) : null}
        {issue.memoryMode && issue.memoryMode !== 'enabled' ? <span className="badge badge-small">{issue.memoryMode}</span> : null}
      </div>
      <p className="failed-job-error">{issue.lastError ?? <span className="muted">no error recorded</span>}</p>
      <p className="failed-job-retry muted">
        {retryText[issue.retryState]}
        {issue.retryAt ? (
          <>
            {' '}
            · retry at <TimeText time={issue.retryAt} now={now} />
          </>
        ) : null}
        {issue.retryRemaining !== null ? ` · ${issue.retryRemaining} retries left` : ''}
      </p>
    </li>
  );
}

export function Stage1JobsView({ jobs, now, onOpenSession }: Stage1JobsViewProps) {
  if (!jobs) {
    return (
      <div className="health-block">
        <h3>Extraction (Phase 1)</h3>
        <p className="muted">No stage-1 jobs table was found, so Phase 1 has not run for this version.</p>
      </div>
    );
  }
  return (
    <div className="health-block" data-testid="stage1-jobs">
      <h3>
        Extraction (Phase 1) <span className="muted">{jobs.total.toLocaleString()} jobs</span>
      </h3>
      <ul className="status-counts">
        {statusOrder.map((status) => (
          <li key={status} className={status === 'error' && jobs.byStatus.error > 0 ? 'text-danger' : undefined}>
            <strong>{jobs.byStatus[status].toLocaleString()}</strong> {status}
          </li>
        ))}
        <li className="muted">{jobs.runningLive} running with a live lease</li>
      </ul>
      {jobs.issues.length === 0 ? (
        <p className="muted">No failed or retrying jobs.</p>
      ) : (
        <>
          <h4>
            Failed or retrying <span className="muted">{jobs.issuesTotal.toLocaleString()}</span>
            {jobs.issuesTotal > jobs.issues.length ? <span className="muted"> (newest {jobs.issues.length} shown)</span> : null}
          </h4>
          <ul className="failed-jobs">
            {jobs.issues.map((issue) => (
              <Issue key={issue.threadId} issue={issue} now={now} onOpenSession={onOpenSession} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
