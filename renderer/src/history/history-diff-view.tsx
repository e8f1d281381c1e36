// One file of a history entry: the diff from the version before it (the previous entry of that file) to this one,
// or, through "Compare with", between this entry's version and any other recorded version of the same file.
import { useId, useState } from 'react';
import type { HistoryEntry, HistoryFile } from '../../../shared/review';
import { useHistoryDiff } from '../api/review-queries';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { entryLabel } from './history-labels';
import { HunkPreview } from './hunk-preview';

export interface HistoryDiffViewProps {
  entry: HistoryEntry;
  file: HistoryFile;
  /** Every entry, newest first: the one before `entry` that touched the same file is the default "from" side. */
  entries: readonly HistoryEntry[];
}

const touches = (e: HistoryEntry, file: HistoryFile) => e.files.some((f) => f.relPath === file.relPath && f.root === file.root);

/** The other entries that touched the same file, newest first (the order of `entries`). */
function otherVersionsOf(entries: readonly HistoryEntry[], entry: HistoryEntry, file: HistoryFile): HistoryEntry[] {
  return entries.filter((e) => e.id !== entry.id && touches(e, file));
}

function previousOf(entries: readonly HistoryEntry[], entry: HistoryEntry, file: HistoryFile): HistoryEntry | null {
  const index = entries.findIndex((e) => e.id === entry.id);
  const older = entries.slice(index + 1);
  return older.find((e) => touches(e, file)) ?? null;
}

/** The value of the "Compare with" option that shows this entry's version in full (only when no earlier version exists). */
const FULL_CONTENT = '';

export function HistoryDiffView({ entry, file, entries }: HistoryDiffViewProps) {
  const selectId = useId();
  const previous = previousOf(entries, entry, file);
  const others = otherVersionsOf(entries, entry, file);
  const [compareId, setCompareId] = useState<string>(previous?.id ?? FULL_CONTENT);
  const other = others.find((e) => e.id === compareId) ?? null;
  // Older version on the "from" side, so "+" always means "added later" (entries are newest first).
  const otherIsNewer = other !== null && entries.indexOf(other) < entries.indexOf(entry);
  const [fromEntry, toEntry] = other === null ? [entry, entry] : otherIsNewer ? [entry, other] : [other, entry];
  const diff = useHistoryDiff({ from: fromEntry.id, to: toEntry.id, path: file.relPath });

  const picker =
    others.length > 0 ? (
      <div className="field history-compare">
        <label htmlFor={selectId} className="small">
          Compare with
        </label>
        <select id={selectId} data-testid="compare-with" value={other?.id ?? FULL_CONTENT} onChange={(event) => setCompareId(event.target.value)}>
          {previous === null ? <option value={FULL_CONTENT}>Nothing (show this version in full)</option> : null}
          {others.map((e) => (
            <option key={e.id} value={e.id}>
              {entryLabel(e)}
            </option>
          ))}
        </select>
      </div>
    ) : null;

  let body;
  if (diff.error) body = <ErrorPanel compact title={`Cannot diff ${file.relPath}`} error={toStudioError(diff.error)} onRetry={() => void diff.refetch()} />;
  else if (!diff.data) body = <LoadingState inline label={`Comparing versions of ${file.relPath}…`} />;
  else if (other === null) {
    body = (
      <>
        <p className="muted small">The first version of {file.relPath} Memory Studio recorded; its content after this entry:</p>
        {diff.data.to.content === null ? <p className="muted">The file was deleted.</p> : <pre className="result-text">{diff.data.to.content}</pre>}
      </>
    );
  } else {
    body = (
      <>
        <p className="muted small">
          From <code>{fromEntry.id}</code> ({fromEntry.summary}) to <code>{toEntry.id}</code>
          {toEntry.id === entry.id ? null : <> ({toEntry.summary})</>}.
        </p>
        <HunkPreview hunks={diff.data.hunks} empty="The two versions are identical." />
      </>
    );
  }
  return (
    <div className="history-diff" data-testid="history-diff" data-from={fromEntry.id} data-to={toEntry.id}>
      {picker}
      {body}
    </div>
  );
}
