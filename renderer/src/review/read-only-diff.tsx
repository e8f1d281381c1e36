// A change to look at, not to decide (a history entry, a version comparison, the baseline): the review's own file view,
// read only: blocks, "Hunk n of M" with j/k, the line diff and the whole file.
import { useMemo, useRef } from 'react';
import { useKeyScope } from '../keymap/use-keys';
import type { FileBlocks, Hunk } from '../../../shared/review';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { FileReview } from './file-review';
import { fileChange } from './file-change';
import { useHunkCursor, type ReviewFile } from './use-hunk-cursor';

export interface ReadOnlyDiffProps {
  modelKey: string;
  path: string;
  before: string | null;
  after: string | null;
  hunks: readonly Hunk[];
  blocks?: FileBlocks;
  colorScheme: ColorScheme;
  /** Said when there is no hunk. */
  empty: string;
  /** Names the two sides above the whole-file view ("Before this entry" / "After it"). */
  labels: { before: string; after: string };
}

const noDecisions = { of: () => ({}), set: () => undefined };

export function ReadOnlyDiff({ modelKey, path, before, after, hunks, blocks, colorScheme, empty, labels }: ReadOnlyDiffProps) {
  const files = useMemo<ReviewFile[]>(
    () => [
      {
        ord: 0,
        relPath: path,
        baseSha256: modelKey,
        texts: { baseContent: before, proposedContent: after },
        hunks: [...hunks],
        change: fileChange(before, after),
      },
    ],
    [modelKey, path, before, after, hunks],
  );
  const cursor = useHunkCursor(files, noDecisions, { blocks });
  const panel = useRef<HTMLElement>(null);
  useKeyScope(panel, 'diff', { 'review.next': cursor.actions.next, 'review.previous': cursor.actions.previous });
  const file = cursor.file;
  return (
    <section
      className="read-only-diff"
      data-testid="read-only-diff"
      data-path={path}
      data-hunks={hunks.length}
      tabIndex={-1}
      ref={panel}
      aria-label={`Changes to ${path}`}
    >
      {file ? (
        <FileReview
          proposalId={null}
          file={file}
          cursor={cursor}
          decided={{}}
          pending={false}
          colorScheme={colorScheme}
          labels={labels}
          empty={empty}
        />
      ) : null}
    </section>
  );
}
