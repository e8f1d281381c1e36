// One file of a proposal under review: Monaco's diff, its hunks with Accept/Reject, and exactly what Apply would write.
import { lazy, Suspense, type ReactNode } from 'react';
import type { FileResult, ProposalFile } from '../../../shared/review';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { HunkList } from './hunk-list';
import { ResultPreview } from './result-preview';
import type { DecisionsState } from './use-decisions';
import type { HunkCursor } from './use-hunk-cursor';

const DiffEditor = lazy(() => import('./diff-editor').then((module) => ({ default: module.DiffEditor })));

export interface FileReviewProps {
  file: ProposalFile;
  cursor: HunkCursor;
  decisions: DecisionsState;
  pending: boolean;
  colorScheme: ColorScheme;
  /** Unique per page: the hunks heading's id. */
  headingId: string;
  result: { file: FileResult | undefined; stale: boolean; error: Error | null; retry: () => void };
  /** Extra buttons beside "Accept file" (the review's "Edit result"). */
  actions?: ReactNode;
  /** A hint under the heading (the keys), when the page does not show one elsewhere. */
  hint?: ReactNode;
  /** Makes the proposed side editable and reports each change. */
  onEdit?: (text: string) => void;
}

export function FileReview({ file, cursor, decisions, pending, colorScheme, headingId, result, actions, hint, onEdit }: FileReviewProps) {
  const activeHunk = cursor.hunks[cursor.current];
  return (
    <>
      <div className="review-diff">
        <Suspense fallback={<LoadingState label="Loading the diff editor…" />}>
          <DiffEditor
            modelKey={`${file.ord}:${file.baseSha256 ?? 'absent'}:${file.relPath}`}
            path={file.relPath}
            original={file.baseContent ?? ''}
            modified={file.proposedContent ?? ''}
            colorScheme={colorScheme}
            revealLine={activeHunk ? Math.max(activeHunk.newStart, 1) : null}
            onEdit={onEdit}
          />
        </Suspense>
      </div>
      <div className="review-lower">
        <section className="review-hunks" aria-labelledby={headingId}>
          <header className="result-header">
            <h3 id={headingId}>Hunks of {file.relPath}</h3>
            {pending && cursor.hunks.length > 0 ? (
              <button type="button" className="button button-small" data-testid="accept-file" onClick={cursor.actions.acceptFile}>
                Accept file <kbd>A</kbd>
              </button>
            ) : null}
            {actions}
          </header>
          {hint}
          <HunkList hunks={cursor.hunks} decisions={decisions.of(file.ord)} active={cursor.current} readOnly={!pending} onActivate={cursor.setActive} onDecide={cursor.decide} />
        </section>
        <ResultPreview file={result.file} stale={result.stale} error={result.error} onRetry={result.retry} />
      </div>
    </>
  );
}
