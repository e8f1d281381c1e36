// Apply: the button that says what it writes and where, then the outcome (history entry), Locked with Retry, or other errors.
import type { AppliedProposal } from '../../../shared/review';
import type { StudioError } from '../../../shared/result';
import { ErrorPanel } from '../common/error-panel';
import { plural } from '../lib/format';
import type { ApplySummary } from './apply-summary';
import { fileLabel } from './proposal-parts';

export interface ApplyBarProps {
  summary: ApplySummary | null;
  /** Why Apply must wait (a file changed on disk, an unresolved conflict): shown on the disabled button. */
  blocked: string | null;
  applying: boolean;
  /** The last Apply failure (its message says what was written: nothing). */
  error: StudioError | null;
  onApply: () => void;
  onRejectProposal: () => void;
  rejecting: boolean;
}

function LockedMessage({ error, onRetry, retrying }: { error: StudioError; onRetry: () => void; retrying: boolean }) {
  return (
    <ErrorPanel
      compact
      title="Codex is consolidating memory right now"
      error={{ ...error, hint: error.hint ?? 'Nothing was written. Wait for Codex to finish, then Retry.' }}
      onRetry={onRetry}
      retrying={retrying}
    />
  );
}

function label(summary: ApplySummary | null, blocked: string | null, applying: boolean): string {
  if (applying) return 'Applying…';
  if (blocked) return blocked;
  return summary ? summary.label : 'Working out what Apply writes…';
}

export function ApplyBar({ summary, blocked, applying, error, onApply, onRejectProposal, rejecting }: ApplyBarProps) {
  return (
    <div className="apply-bar">
      {error?.kind === 'Locked' ? <LockedMessage error={error} onRetry={onApply} retrying={applying} /> : null}
      {error && error.kind !== 'Locked' ? (
        <ErrorPanel compact title="Apply stopped" error={error} onRetry={blocked ? undefined : onApply} retrying={applying} />
      ) : null}
      <div className="apply-actions">
        <button
          type="button"
          className="button button-primary apply-button"
          data-testid="apply-button"
          data-blocked={blocked ? 'true' : 'false'}
          disabled={!summary || summary.empty || applying || blocked !== null}
          onClick={onApply}
          title="Writes atomically under Codex's lock; every file's base is checked first"
        >
          {label(summary, blocked, applying)}
        </button>
        <button type="button" className="button" data-testid="reject-proposal" onClick={onRejectProposal} disabled={rejecting || applying}>
          Reject proposal
        </button>
      </div>
    </div>
  );
}

export function AppliedMessage({ applied, onOpenHistory }: { applied: AppliedProposal; onOpenHistory: () => void }) {
  const files = applied.written.map(
    (w) => `${w.action === 'delete' ? 'deleted' : 'wrote'} ${w.target === 'memory' ? `${w.version}/${w.relPath}` : fileLabel(w)}`,
  );
  const pending = applied.lease.some((l) => l.previous === 'pending');
  return (
    <div className="notice notice-info apply-result" role="status" data-testid="apply-result" data-entry-id={applied.entry.id}>
      <strong>Applied.</strong> {files.length > 0 ? `${files.join(', ')}.` : `${plural(0, 'file')} written.`} History entry{' '}
      <code>{applied.entry.id}</code> ({applied.entry.summary}).
      {pending ? ' Codex will fold the change in at its next consolidation.' : ''}{' '}
      <button type="button" className="link-button" data-testid="show-in-history" onClick={onOpenHistory}>
        Show in History
      </button>
    </div>
  );
}
