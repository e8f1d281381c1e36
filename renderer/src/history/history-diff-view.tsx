// One file of a history entry: the diff from the version before it (the previous entry of that file) to this one.
import type { HistoryEntry, HistoryFile } from '../../../shared/review';
import { useHistoryDiff } from '../api/review-queries';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { HunkPreview } from './hunk-preview';

export interface HistoryDiffViewProps {
  entry: HistoryEntry;
  file: HistoryFile;
  /** Every entry, newest first: the one before `entry` that touched the same file is the "from" side. */
  entries: readonly HistoryEntry[];
}

function previousOf(entries: readonly HistoryEntry[], entry: HistoryEntry, file: HistoryFile): HistoryEntry | null {
  const index = entries.findIndex((e) => e.id === entry.id);
  const older = entries.slice(index + 1);
  return older.find((e) => e.files.some((f) => f.relPath === file.relPath && f.root === file.root)) ?? null;
}

export function HistoryDiffView({ entry, file, entries }: HistoryDiffViewProps) {
  const previous = previousOf(entries, entry, file);
  const request = { from: previous?.id ?? entry.id, to: entry.id, path: file.relPath };
  const diff = useHistoryDiff(request);
  if (diff.error) return <ErrorPanel compact title={`Cannot diff ${file.relPath}`} error={toStudioError(diff.error)} onRetry={() => void diff.refetch()} />;
  if (!diff.data) return <LoadingState inline label={`Comparing versions of ${file.relPath}…`} />;
  if (!previous) {
    return (
      <div className="history-diff" data-testid="history-diff">
        <p className="muted small">The first version of {file.relPath} Memory Studio recorded; its content after this entry:</p>
        {diff.data.to.content === null ? <p className="muted">The file was deleted.</p> : <pre className="result-text">{diff.data.to.content}</pre>}
      </div>
    );
  }
  return (
    <div className="history-diff" data-testid="history-diff">
      <p className="muted small">
        From <code>{previous.id}</code> ({previous.summary}) to <code>{entry.id}</code>.
      </p>
      <HunkPreview hunks={diff.data.hunks} empty="The two versions are identical." />
    </div>
  );
}
