// Step 7, Apply: exactly what Apply writes where, the standard `review.apply`, and Locked / Conflict with what to do.
import type { MemoryVersion } from '../../../shared/domain';
import type { FileResult } from '../../../shared/review';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { plural } from '../lib/format';
import type { StudioError } from '../../../shared/result';
import { StaleBanner } from '../review/stale-banner';
import type { ImportProposal } from './use-import-proposal';

export interface ApplyStepProps {
  review: ImportProposal;
  /** Roots whose DB gets consolidation enqueued (from the proposal outcome, else the roots written). */
  enqueue: readonly MemoryVersion[];
  onProposeAgain: () => void;
}

function groupByRoot(files: readonly FileResult[]): Map<string, FileResult[]> {
  const byRoot = new Map<string, FileResult[]>();
  for (const file of files) {
    if (file.action === 'unchanged') continue;
    byRoot.set(file.root, [...(byRoot.get(file.root) ?? []), file]);
  }
  return byRoot;
}

function WhatApplyWrites({ files, enqueue }: { files: readonly FileResult[]; enqueue: readonly MemoryVersion[] }) {
  const byRoot = groupByRoot(files);
  if (byRoot.size === 0)
    return <p className="muted">Nothing is accepted, so Apply would write nothing: go back to Review and accept the changes.</p>;
  return (
    <section aria-labelledby="apply-writes-title" data-testid="apply-writes">
      <h3 id="apply-writes-title" className="page-section-title">
        What Apply writes
      </h3>
      {[...byRoot].map(([root, rootFiles]) => (
        <div key={root} className="card import-apply-root" data-testid="apply-root" data-root={root}>
          <h3>
            <code className="break">{root}</code> <span className="muted">{plural(rootFiles.length, 'file')}</span>
          </h3>
          <ul className="plain-list">
            {rootFiles.map((file) => (
              <li key={file.ord} data-testid="apply-file" data-path={file.relPath}>
                <span className={`badge badge-small ${file.action === 'delete' ? 'badge-error' : 'badge-ok'}`}>{file.action}</span>{' '}
                <code className="break">{file.relPath}</code>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <p className="muted small">
        Apply takes Codex&rsquo;s lock of every target root first and writes everything or nothing;{' '}
        {enqueue.length > 0
          ? `then it enqueues consolidation in the memory DB of ${enqueue.join(' and ')}, so Codex folds the import in at its next run.`
          : 'no memory DB exists there yet, so Codex picks the import up at its first consolidation.'}
      </p>
    </section>
  );
}

/** The Apply button with a short label (the list above says what and where), and Locked or other errors with Retry. */
function ImportApplyBar({ review, error }: { review: ImportProposal; error: StudioError | null }) {
  const { flow, summary, result } = review;
  const files = result.data?.files ?? [];
  const writes = files.filter((file) => file.action === 'write').length;
  const deletes = files.filter((file) => file.action === 'delete').length;
  const count = writes + deletes;
  const locked = error?.kind === 'Locked';
  return (
    <div className="apply-bar import-apply-bar">
      {error ? (
        <ErrorPanel
          compact
          title={locked ? 'Codex is consolidating memory right now' : 'Apply stopped'}
          error={{ ...error, hint: error.hint ?? (locked ? 'Nothing was written. Wait for Codex to finish, then Retry.' : undefined) }}
          onRetry={flow.apply}
          retrying={flow.applying}
        />
      ) : null}
      <div className="apply-actions">
        <button
          type="button"
          className="button button-primary"
          data-testid="apply-button"
          data-blocked={review.blocked ? 'true' : 'false'}
          disabled={!summary || summary.empty || count === 0 || flow.applying || review.blocked !== null}
          onClick={flow.apply}
          title={summary?.label}
        >
          {flow.applying
            ? 'Applying…'
            : (review.blocked ?? `Apply: write ${plural(writes, 'file')}${deletes > 0 ? `, delete ${deletes}` : ''}`)}
        </button>
        <button
          type="button"
          className="button"
          data-testid="reject-proposal"
          onClick={flow.reject}
          disabled={flow.rejecting || flow.applying}
        >
          Reject proposal
        </button>
      </div>
    </div>
  );
}

export function ApplyStep({ review, enqueue, onProposeAgain }: ApplyStepProps) {
  const { proposal, flow, result } = review;
  if (!proposal) return <LoadingState label="Opening the proposal…" />;
  if (proposal.status === 'rejected' || proposal.status === 'superseded') {
    return (
      <div className="import-step" data-testid="step-apply">
        <p className="notice notice-warn">
          This proposal was {proposal.status}: nothing was written.{' '}
          <button type="button" className="link-button" onClick={onProposeAgain}>
            Propose the import again
          </button>
        </p>
      </div>
    );
  }
  const needsReview =
    (flow.rebased?.files.some((f) => f.conflicts.length > 0) ?? false) ||
    (result.data?.files.some((f) => f.unresolvedHunkIds.length > 0) ?? false);
  return (
    <div className="import-step" data-testid="step-apply">
      {/* What went wrong and what to do comes first, above the list of writes. */}
      {flow.error?.kind === 'Locked' ? (
        <p className="notice notice-warn" data-testid="locked-help">
          Codex holds the memory lock while it consolidates. Nothing was written; Retry below once it is done (usually within a minute).
        </p>
      ) : null}
      {review.stale.length > 0 ? (
        <p className="notice notice-warn" data-testid="conflict-help">
          A target file changed on disk after the proposal was made, so Apply would write nothing. Rebase merges the disk&rsquo;s version
          into the proposal; if lines conflict, resolve them at the Review step (<kbd>Alt</kbd>+<kbd>←</kbd>), then Apply.
        </p>
      ) : null}
      {needsReview ? (
        <p className="notice notice-warn" data-testid="resolve-help">
          Some lines conflict with what is on disk now: go back to the Review step (<kbd>Alt</kbd>+<kbd>←</kbd>) and resolve each conflict
          (theirs, ours, both or edit), then Apply.
        </p>
      ) : null}
      {proposal.status === 'pending' ? (
        <StaleBanner
          stale={review.stale}
          rebasing={flow.rebasing}
          rebaseError={flow.rebaseError}
          outcome={flow.rebased}
          onRebase={flow.rebase}
        />
      ) : null}
      {result.error ? (
        <ErrorPanel
          compact
          title="Cannot compute what Apply writes"
          error={toStudioError(result.error)}
          onRetry={() => void result.refetch()}
        />
      ) : null}
      {result.data ? (
        <WhatApplyWrites files={result.data.files} enqueue={enqueue} />
      ) : (
        <LoadingState inline label="Working out what Apply writes…" />
      )}
      {proposal.status === 'pending' ? <ImportApplyBar review={review} error={flow.error} /> : null}
    </div>
  );
}
