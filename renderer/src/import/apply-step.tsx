// Step 7, Apply: exactly what Apply writes where, the standard `review.apply`, and Locked / Conflict with what to do.
import type { MemoryVersion } from '../../../shared/domain';
import type { FileResult } from '../../../shared/review';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { plural } from '../lib/format';
import { ApplyBar } from '../review/apply-bar';
import { ConflictView } from '../review/conflict-view';
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
  if (byRoot.size === 0) return <p className="muted">Nothing is accepted, so Apply would write nothing: go back to Review and accept the changes.</p>;
  return (
    <section aria-labelledby="apply-writes-title" data-testid="apply-writes">
      <h3 id="apply-writes-title" className="page-section-title">What Apply writes</h3>
      {[...byRoot].map(([root, rootFiles]) => (
        <div key={root} className="card import-apply-root" data-testid="apply-root" data-root={root}>
          <h3>
            <code className="break">{root}</code> <span className="muted">{plural(rootFiles.length, 'file')}</span>
          </h3>
          <ul className="plain-list">
            {rootFiles.map((file) => (
              <li key={file.ord} data-testid="apply-file" data-path={file.relPath}>
                <span className={`badge badge-small ${file.action === 'delete' ? 'badge-error' : 'badge-ok'}`}>{file.action}</span> <code className="break">{file.relPath}</code>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <p className="muted small">
        Apply takes Codex&rsquo;s lock of every target root first and writes everything or nothing; then it enqueues consolidation in{' '}
        {enqueue.length > 0 ? enqueue.join(' and ') : 'each touched root'}&rsquo;s memory DB, so Codex folds the import in at its next run.
      </p>
    </section>
  );
}

export function ApplyStep({ review, enqueue, onProposeAgain }: ApplyStepProps) {
  const { proposal, flow, result, summary } = review;
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
  const conflictFile = flow.error?.kind === 'Conflict' ? (proposal.files.find((f) => flow.error?.path?.endsWith(f.relPath)) ?? proposal.files[0]) : undefined;
  return (
    <div className="import-step" data-testid="step-apply">
      {result.error ? <ErrorPanel compact title="Cannot compute what Apply writes" error={toStudioError(result.error)} onRetry={() => void result.refetch()} /> : null}
      {result.data ? <WhatApplyWrites files={result.data.files} enqueue={enqueue} /> : <LoadingState inline label="Working out what Apply writes…" />}
      {flow.error?.kind === 'Locked' ? (
        <p className="muted small" data-testid="locked-help">
          Codex holds the memory lock while it consolidates. Nothing was written; Retry once it is done (usually within a minute).
        </p>
      ) : null}
      {conflictFile && flow.error ? (
        <>
          <p className="muted small" data-testid="conflict-help">
            A target file changed on disk after the proposal was made. Rebase the proposal onto the current file, check the Review step again, then Apply.
          </p>
          <ConflictView error={flow.error} file={conflictFile} rebasing={flow.rebasing} rebaseError={flow.rebaseError} onRebase={flow.rebase} />
        </>
      ) : null}
      {proposal.status === 'pending' ? (
        <ApplyBar summary={summary} applying={flow.applying} error={flow.error && flow.error.kind !== 'Conflict' ? flow.error : null} onApply={flow.apply} onRejectProposal={flow.reject} rejecting={flow.rejecting} />
      ) : null}
    </div>
  );
}
