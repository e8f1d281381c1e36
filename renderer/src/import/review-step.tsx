// Step 6, Review: the standard diff review of the import proposal (files, Monaco diff, hunks with a/r/j/k, the result), embedded.
import { useEffect, useRef } from 'react';
import type { Proposal } from '../../../shared/review';
import type { ImportOutcome, PlannedLint } from '../../../shared/import';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { FileReview } from '../review/file-review';
import { DbChanges, ProposalHeader, ReviewFiles } from '../review/proposal-parts';
import { StaleBanner } from '../review/stale-banner';
import { useConflictKeys } from '../review/use-conflict-keys';
import { useHunkCursor } from '../review/use-hunk-cursor';
import { useLandingFocus, useMoveOnKeys } from '../review/use-landing-focus';
import { useReviewKeys } from '../review/use-review-keys';
import { PlannedLintWarnings } from './lint-warnings';
import type { ImportProposal } from './use-import-proposal';

export interface ReviewStepProps {
  review: ImportProposal;
  outcome: ImportOutcome | null;
  /** The lint warnings the files will raise: core's outcome's, or the plan's after a reload. */
  lint: readonly PlannedLint[];
  proposing: boolean;
  proposeError: Error | null;
  onRetryPropose: () => void;
  colorScheme: ColorScheme;
}

/** The wizard's own controls: the focus they hold on reaching this step is handed over to the proposal. */
const WIZARD_FRAME =
  '[data-testid="wizard-heading"], [data-testid="wizard-back"], [data-testid="wizard-next"], [data-testid="wizard-step"]';

function LoadedReview({ proposal, review, colorScheme }: { proposal: Proposal; review: ImportProposal; colorScheme: ColorScheme }) {
  const cursor = useHunkCursor(proposal.files, review.decisions, { proposalId: proposal.id });
  const pending = proposal.status === 'pending';
  const { conflictEditing, actions } = useConflictKeys(cursor);
  const panel = useRef<HTMLElement>(null);
  // The step opens on the first undecided hunk, as the Review view does: the wizard's heading hands the focus over.
  const landing = useLandingFocus(panel, { files: proposal.files, pending }, cursor, review.decisions.of, { from: WIZARD_FRAME });
  useReviewKeys(panel, useMoveOnKeys(actions, landing), pending);
  const { flow } = review;
  const { rebased } = flow;
  useEffect(() => {
    if (rebased) landing.request();
  }, [rebased, landing]);
  const { file } = cursor;
  const fileResult = review.result.data?.files.find((f) => f.ord === file?.ord);
  return (
    <section
      className="proposal-detail import-review"
      data-testid="proposal-detail"
      data-id={proposal.id}
      data-status={proposal.status}
      tabIndex={-1}
      ref={panel}
      aria-label={`Proposal ${proposal.title}`}
    >
      <ProposalHeader proposal={proposal} saving={review.decisions.saving} />
      {pending ? (
        <StaleBanner
          stale={review.stale}
          rebasing={flow.rebasing}
          rebaseError={flow.rebaseError}
          outcome={flow.rebased}
          onRebase={flow.rebase}
        />
      ) : null}
      {review.decisions.saveError ? (
        <ErrorPanel compact title="Cannot save the decisions" error={toStudioError(review.decisions.saveError)} />
      ) : null}
      <div className="import-review-actions">
        {pending ? (
          <button type="button" className="button button-primary button-small" data-testid="accept-all" onClick={review.acceptAll}>
            Accept all files
          </button>
        ) : null}
        <span className="muted small">
          Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous hunk, <kbd>a</kbd> accept, <kbd>r</kbd> reject, <kbd>A</kbd> accept the file; on a
          conflict <kbd>t</kbd>/<kbd>o</kbd>/<kbd>b</kbd>/<kbd>e</kbd>. Undecided hunks are not written; accepting never resolves a
          conflict.
        </span>
      </div>
      <DbChanges changes={proposal.dbChanges} />
      <ReviewFiles files={proposal.files} selected={file?.ord ?? 0} onSelect={cursor.select} decisionsOf={review.decisions.of}>
        {file ? (
          <FileReview
            proposalId={proposal.id}
            file={file}
            conflictEditing={conflictEditing}
            cursor={cursor}
            decided={review.decisions.of(file.ord)}
            editOf={(hunkId) => review.decisions.editOf(file.ord, hunkId)}
            pending={pending}
            colorScheme={colorScheme}
            result={{
              file: fileResult,
              stale: review.decisions.saving || review.result.isFetching,
              error: review.result.error,
              retry: () => void review.result.refetch(),
            }}
          />
        ) : null}
      </ReviewFiles>
    </section>
  );
}

export function ReviewStep({ review, outcome, lint, proposing, proposeError, onRetryPropose, colorScheme }: ReviewStepProps) {
  if (proposeError)
    return (
      <ErrorPanel
        title="Cannot make the import proposal"
        error={toStudioError(proposeError)}
        onRetry={onRetryPropose}
        retrying={proposing}
      />
    );
  if (outcome?.nothingToImport) {
    return (
      <div className="import-step" data-testid="step-review">
        <p className="notice notice-info" data-testid="nothing-to-import">
          {/* Core's message starts "Nothing to import…" itself (or "…yet", when projects wait for a folder). */}
          <strong>{outcome.message || 'Nothing to import: the sources are unchanged since the last import.'}</strong>
        </p>
      </div>
    );
  }
  if (review.query.error) {
    return (
      <ErrorPanel
        title="Cannot open the import proposal"
        error={toStudioError(review.query.error)}
        onRetry={() => void review.query.refetch()}
        retrying={review.query.isFetching}
      />
    );
  }
  if (!review.proposal) return <LoadingState label={proposing ? 'Making the proposal…' : 'Opening the proposal…'} />;
  return (
    <div className="import-step import-review-step" data-testid="step-review">
      <PlannedLintWarnings lint={lint} />
      <LoadedReview key={review.proposal.id} proposal={review.proposal} review={review} colorScheme={colorScheme} />
    </div>
  );
}
