// Step 6, Review: the standard diff review of the import proposal (files, Monaco diff, hunks with a/r/j/k, the result), embedded.
import { lazy, Suspense, useState } from 'react';
import type { Hunk, HunkDecision, Proposal } from '../../../shared/review';
import type { ImportOutcome } from '../../../shared/import';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { HunkList } from '../review/hunk-list';
import { DbChanges, FileTabs, ProposalHeader } from '../review/proposal-parts';
import { ResultPreview } from '../review/result-preview';
import { useReviewKeys } from '../review/use-review-keys';
import type { ImportProposal } from './use-import-proposal';

const DiffEditor = lazy(() => import('../review/diff-editor').then((module) => ({ default: module.DiffEditor })));

export interface ReviewStepProps {
  review: ImportProposal;
  outcome: ImportOutcome | null;
  proposing: boolean;
  proposeError: Error | null;
  onRetryPropose: () => void;
  colorScheme: ColorScheme;
}

/** The file shown and its active hunk, as in the Review view: j/k move, a/r decide and move on, A accepts the file. */
function useCursor(proposal: Proposal, review: ImportProposal) {
  const [selected, setSelected] = useState(proposal.files[0]?.ord ?? 0);
  const [active, setActive] = useState(0);
  const file = proposal.files.find((f) => f.ord === selected) ?? proposal.files[0];
  const hunks = file?.hunks ?? [];
  const current = Math.min(active, Math.max(hunks.length - 1, 0));
  const decide = (hunk: Hunk, decision: HunkDecision) => file && review.decisions.set(file.ord, [hunk.id], decision);
  const decideActive = (decision: HunkDecision) => {
    const hunk = hunks[current];
    if (hunk) decide(hunk, decision);
    setActive(Math.min(current + 1, hunks.length - 1));
  };
  const actions = {
    next: () => setActive(Math.min(current + 1, hunks.length - 1)),
    previous: () => setActive(Math.max(current - 1, 0)),
    accept: () => decideActive('accept'),
    reject: () => decideActive('reject'),
    acceptFile: () => file && review.decisions.set(file.ord, hunks.map((h) => h.id), 'accept'),
  };
  const select = (ord: number) => {
    setSelected(ord);
    setActive(0);
  };
  return { file, hunks, current, setActive, decide, actions, select };
}

function LoadedReview({ proposal, review, colorScheme }: { proposal: Proposal; review: ImportProposal; colorScheme: ColorScheme }) {
  const cursor = useCursor(proposal, review);
  const pending = proposal.status === 'pending';
  const onKeyDown = useReviewKeys(cursor.actions, pending);
  const { file } = cursor;
  const fileResult = review.result.data?.files.find((f) => f.ord === file?.ord);
  const activeHunk = cursor.hunks[cursor.current];
  return (
    <section className="proposal-detail import-review" data-testid="proposal-detail" data-id={proposal.id} data-status={proposal.status} tabIndex={-1} onKeyDown={onKeyDown} aria-label={`Proposal ${proposal.title}`}>
      <ProposalHeader proposal={proposal} saving={review.decisions.saving} />
      {review.decisions.saveError ? <ErrorPanel compact title="Cannot save the decisions" error={toStudioError(review.decisions.saveError)} /> : null}
      <div className="import-review-actions">
        {pending ? (
          <button type="button" className="button button-primary button-small" data-testid="accept-all" onClick={review.acceptAll}>
            Accept all files
          </button>
        ) : null}
        <span className="muted small">
          Keys: <kbd>j</kbd>/<kbd>k</kbd> next/previous hunk, <kbd>a</kbd> accept, <kbd>r</kbd> reject, <kbd>A</kbd> accept the file. Undecided hunks are not written.
        </span>
      </div>
      <FileTabs files={proposal.files} selected={file?.ord ?? 0} onSelect={cursor.select} />
      <DbChanges changes={proposal.dbChanges} />
      {file ? (
        <div className="review-diff">
          <Suspense fallback={<LoadingState label="Loading the diff editor…" />}>
            <DiffEditor modelKey={`${file.ord}:${file.baseSha256 ?? 'absent'}:${file.relPath}`} path={file.relPath} original={file.baseContent ?? ''} modified={file.proposedContent ?? ''} colorScheme={colorScheme} revealLine={activeHunk ? Math.max(activeHunk.newStart, 1) : null} />
          </Suspense>
        </div>
      ) : null}
      {file ? (
        <div className="review-lower">
          <section className="review-hunks" aria-labelledby="import-hunks-title">
            <header className="result-header">
              <h3 id="import-hunks-title">Hunks of {file.relPath}</h3>
              {pending && cursor.hunks.length > 0 ? (
                <button type="button" className="button button-small" data-testid="accept-file" onClick={cursor.actions.acceptFile}>
                  Accept file <kbd>A</kbd>
                </button>
              ) : null}
            </header>
            <HunkList hunks={cursor.hunks} decisions={review.decisions.of(file.ord)} active={cursor.current} readOnly={!pending} onActivate={cursor.setActive} onDecide={cursor.decide} />
          </section>
          <ResultPreview file={fileResult} stale={review.decisions.saving || review.result.isFetching} error={review.result.error} onRetry={() => void review.result.refetch()} />
        </div>
      ) : null}
    </section>
  );
}

export function ReviewStep({ review, outcome, proposing, proposeError, onRetryPropose, colorScheme }: ReviewStepProps) {
  if (proposeError) return <ErrorPanel title="Cannot make the import proposal" error={toStudioError(proposeError)} onRetry={onRetryPropose} retrying={proposing} />;
  if (outcome?.nothingToImport) {
    return (
      <div className="import-step" data-testid="step-review">
        <p className="notice notice-info" data-testid="nothing-to-import">
          <strong>Nothing to import.</strong> {outcome.message || 'The sources are unchanged since the last import.'}
        </p>
      </div>
    );
  }
  if (review.query.error) {
    return <ErrorPanel title="Cannot open the import proposal" error={toStudioError(review.query.error)} onRetry={() => void review.query.refetch()} retrying={review.query.isFetching} />;
  }
  if (!review.proposal) return <LoadingState label={proposing ? 'Making the proposal…' : 'Opening the proposal…'} />;
  return (
    <div className="import-step import-review-step" data-testid="step-review">
      <LoadedReview key={review.proposal.id} proposal={review.proposal} review={review} colorScheme={colorScheme} />
    </div>
  );
}
