// A change to look at, not to decide: Monaco's diff of before -> after and its hunk list (j/k), as in the review.
import { lazy, Suspense, useState, type KeyboardEvent } from 'react';
import type { Hunk } from '../../../shared/review';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { HunkList } from './hunk-list';

const DiffEditor = lazy(() => import('./diff-editor').then((module) => ({ default: module.DiffEditor })));

export interface ReadOnlyDiffProps {
  modelKey: string;
  path: string;
  before: string | null;
  after: string | null;
  hunks: readonly Hunk[];
  colorScheme: ColorScheme;
  /** Said when there is no hunk. */
  empty: string;
  /** Names the two sides above the editor ("Before this entry" / "After it"). */
  labels: { before: string; after: string };
}

export function ReadOnlyDiff({ modelKey, path, before, after, hunks, colorScheme, empty, labels }: ReadOnlyDiffProps) {
  const [active, setActive] = useState(0);
  const current = Math.min(active, Math.max(hunks.length - 1, 0));
  const hunk = hunks[current];
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey || (event.target instanceof HTMLElement && ['INPUT', 'TEXTAREA', 'SELECT'].includes(event.target.tagName))) return;
    if (event.key === 'j') setActive(Math.min(current + 1, hunks.length - 1));
    else if (event.key === 'k') setActive(Math.max(current - 1, 0));
    else return;
    event.preventDefault();
  };
  return (
    <section className="read-only-diff" data-testid="read-only-diff" data-path={path} data-hunks={hunks.length} tabIndex={-1} onKeyDown={onKeyDown} aria-label={`Changes to ${path}`}>
      <div className="read-only-diff-labels small muted">
        <span>{labels.before}{before === null ? ' (no file)' : ''}</span>
        <span>{labels.after}{after === null ? ' (no file)' : ''}</span>
      </div>
      <div className="review-diff">
        <Suspense fallback={<LoadingState label="Loading the diff editor…" />}>
          <DiffEditor modelKey={modelKey} path={path} original={before ?? ''} modified={after ?? ''} colorScheme={colorScheme} revealLine={hunk ? Math.max(hunk.newStart, 1) : null} />
        </Suspense>
      </div>
      <div className="read-only-hunks">
        {hunks.length === 0 ? <p className="muted small">{empty}</p> : <p className="muted small">{hunks.length} hunk{hunks.length === 1 ? '' : 's'}; <kbd>j</kbd>/<kbd>k</kbd> move between them.</p>}
        {hunks.length > 0 ? <HunkList hunks={hunks} decisions={{}} active={current} readOnly onActivate={setActive} onDecide={() => undefined} /> : null}
      </div>
    </section>
  );
}
