// One file of a proposal under review: Monaco's diff (or the three-way view of the active conflict), its hunks, and the result.
import { lazy, Suspense, type ReactNode } from 'react';
import type { FileResult, ProposalFile } from '../../../shared/review';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { HunkList } from './hunk-list';
import { ResultPreview } from './result-preview';
import { ThreeWayView } from './three-way-view';
import type { DecisionsState } from './use-decisions';
import type { HunkCursor } from './use-hunk-cursor';

const DiffEditor = lazy(() => import('./diff-editor').then((module) => ({ default: module.DiffEditor })));

/** The conflict hunk whose hand editor is open, if any (the `e` key opens it from the panel). */
export interface ConflictEditing {
  editingId: string | null;
  setEditingId: (hunkId: string | null) => void;
}

export interface FileReviewProps {
  proposalId: string;
  file: ProposalFile;
  cursor: HunkCursor;
  decisions: DecisionsState;
  pending: boolean;
  colorScheme: ColorScheme;
  /** Unique per page: the hunks heading's id. */
  headingId: string;
  result: { file: FileResult | undefined; stale: boolean; error: Error | null; retry: () => void };
  conflictEditing: ConflictEditing;
  /** Extra buttons beside "Accept file" (the review's "Edit result"). */
  actions?: ReactNode;
  /** A hint under the heading (the keys), when the page does not show one elsewhere. */
  hint?: ReactNode;
  /** Makes the proposed side editable and reports each change. */
  onEdit?: (text: string) => void;
}

export function FileReview({ proposalId, file, cursor, decisions, pending, colorScheme, headingId, result, conflictEditing, actions, hint, onEdit }: FileReviewProps) {
  const activeHunk = cursor.activeHunk;
  const conflicts = cursor.hunks.filter((h) => h.kind === 'conflict');
  const decided = decisions.of(file.ord);
  const showThreeWay = activeHunk?.kind === 'conflict' && onEdit === undefined;
  const changes = cursor.hunks.filter((h) => h.kind !== 'conflict').length;
  return (
    <>
      <div className={showThreeWay ? 'review-diff review-three-way' : 'review-diff'}>
        {showThreeWay && activeHunk ? (
          <ThreeWayView
            proposalId={proposalId}
            file={file}
            hunk={activeHunk}
            position={{ index: conflicts.indexOf(activeHunk), count: conflicts.length }}
            decision={decided[activeHunk.id]}
            edit={decisions.editOf(file.ord, activeHunk.id)}
            colorScheme={colorScheme}
            readOnly={!pending}
            editing={conflictEditing.editingId === activeHunk.id}
            onEditing={(open) => conflictEditing.setEditingId(open ? activeHunk.id : null)}
            onResolve={(decision, edit) => cursor.decide(activeHunk, decision, edit)}
          />
        ) : (
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
        )}
      </div>
      <div className="review-lower">
        <section className="review-hunks" aria-labelledby={headingId}>
          <header className="result-header">
            <h3 id={headingId}>Hunks of {file.relPath}</h3>
            {conflicts.length > 0 ? (
              <span className="badge badge-small badge-warn" data-testid="conflict-count">
                {conflicts.filter((h) => !decided[h.id]).length} of {conflicts.length} conflicts open
              </span>
            ) : null}
            {pending && changes > 0 ? (
              <button type="button" className="button button-small" data-testid="accept-file" onClick={cursor.actions.acceptFile} title={conflicts.length > 0 ? 'Accepts every change; conflicts keep waiting for their own resolution.' : undefined}>
                Accept file <kbd>A</kbd>
              </button>
            ) : null}
            {actions}
          </header>
          {hint}
          <HunkList
            hunks={cursor.hunks}
            decisions={decided}
            active={cursor.current}
            readOnly={!pending}
            onActivate={cursor.setActive}
            onDecide={cursor.decide}
            onEdit={(index) => {
              cursor.setActive(index);
              conflictEditing.setEditingId(cursor.hunks[index]?.id ?? null);
            }}
          />
        </section>
        <ResultPreview file={result.file} stale={result.stale} error={result.error} onRetry={result.retry} />
      </div>
    </>
  );
}
