// "Changed on disk since you proposed it": the files whose base moved on, a one-click rebase, and what the rebase did.
import type { RebaseOutcome, StaleFile } from '../../../shared/review';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';

export interface StaleBannerProps {
  stale: readonly StaleFile[];
  rebasing: boolean;
  rebaseError: Error | null;
  /** What the last rebase did, file by file. */
  outcome: RebaseOutcome | null;
  onRebase: () => void;
}

function RebaseResult({ outcome }: { outcome: RebaseOutcome }) {
  const changed = outcome.files.filter((f) => f.outcome !== 'unchanged');
  const conflicts = changed.reduce((n, f) => n + f.conflicts.length, 0);
  return (
    <div
      className={`notice ${conflicts > 0 ? 'notice-warn' : 'notice-info'}`}
      role="status"
      data-testid="rebase-result"
      data-conflicts={conflicts}
    >
      <strong>
        {conflicts > 0 ? `Rebased: ${conflicts} conflict${conflicts === 1 ? '' : 's'} to resolve.` : 'Rebased: merged cleanly.'}
      </strong>
      <ul className="plain-list">
        {(changed.length > 0 ? changed : outcome.files).map((f) => (
          <li key={f.ord}>{f.message}</li>
        ))}
      </ul>
      {conflicts > 0 ? (
        <p className="small">
          Each conflict shows the base, the disk&rsquo;s lines and yours; Apply stays off until every one is resolved.
        </p>
      ) : null}
    </div>
  );
}

export function StaleBanner({ stale, rebasing, rebaseError, outcome, onRebase }: StaleBannerProps) {
  if (stale.length === 0) {
    return outcome ? <RebaseResult outcome={outcome} /> : null;
  }
  const first = stale[0] as StaleFile;
  const title =
    stale.length === 1
      ? `${first.relPath} changed on disk since you proposed it`
      : `${stale.length} files changed on disk since you proposed this`;
  return (
    <section className="stale-banner" role="alert" aria-labelledby="stale-title" data-testid="stale-warning" data-count={stale.length}>
      <h3 id="stale-title">{title}</h3>
      {/* One plainly changed file is said by the title; deletions, creations and several files need the list. */}
      <ul className="plain-list" hidden={stale.length === 1 && first.state === 'changed'}>
        {stale.map((file) => (
          <li key={file.ord} data-testid="stale-file" data-path={file.relPath} data-state={file.state}>
            <span className="badge badge-version">{file.version}</span> {file.message}
          </li>
        ))}
      </ul>
      <p className="small">
        Rebasing merges the disk&rsquo;s version into the proposal: what only one side changed is kept, lines both changed become conflicts
        you resolve here. Your decisions on the hunks it does not touch are kept. Nothing is written until you apply.
      </p>
      {rebaseError ? <ErrorPanel compact title="Cannot rebase" error={toStudioError(rebaseError)} /> : null}
      <div className="apply-actions">
        <button
          type="button"
          className="button button-primary"
          data-testid="rebase-button"
          onClick={onRebase}
          disabled={rebasing || stale.some((f) => f.state === 'unreadable')}
        >
          {rebasing ? 'Rebasing…' : 'Rebase onto the disk'}
        </button>
      </div>
    </section>
  );
}
