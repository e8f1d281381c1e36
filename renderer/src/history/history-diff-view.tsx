// One file of a history entry as a diff: what the entry changed (before -> after), or, through "Compare with", this
// entry's version against any other recorded version of the same file. Shown with the review's diff and hunk list.
import { useId, useState } from 'react';
import type { HistoryEntry, HistoryFile } from '../../../shared/review';
import { useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { ReadOnlyDiff } from '../review/read-only-diff';
import { entryLabel } from './history-labels';

export interface HistoryDiffViewProps {
  entry: HistoryEntry;
  file: HistoryFile;
  /** Every entry, newest first: the other versions of the same file can be compared with this one. */
  entries: readonly HistoryEntry[];
  colorScheme: ColorScheme;
}

const touches = (e: HistoryEntry, file: HistoryFile) => e.files.some((f) => f.relPath === file.relPath && f.root === file.root);

/** The value of the "Compare with" option that shows what this entry itself changed. */
const OWN_CHANGE = '';

function OwnChange({ entry, file, colorScheme }: Omit<HistoryDiffViewProps, 'entries'>) {
  const diff = useStudioQuery('history.entryDiff', { entryId: entry.id, path: file.relPath, root: file.root });
  if (diff.error)
    return (
      <ErrorPanel compact title={`Cannot diff ${file.relPath}`} error={toStudioError(diff.error)} onRetry={() => void diff.refetch()} />
    );
  if (!diff.data) return <LoadingState inline label={`Reading what ${entry.id} changed in ${file.relPath}…`} />;
  const { before, after, hunks } = diff.data;
  return (
    <ReadOnlyDiff
      modelKey={`entry:${entry.id}:${file.root}:${file.relPath}`}
      path={file.relPath}
      before={before.content}
      after={after.content}
      hunks={hunks}
      blocks={diff.data.blocks}
      colorScheme={colorScheme}
      empty="This entry left the file's content as it was."
      labels={{ before: 'Before this entry', after: 'After it' }}
    />
  );
}

function Versions({ from, to, file, colorScheme }: { from: HistoryEntry; to: HistoryEntry; file: HistoryFile; colorScheme: ColorScheme }) {
  const diff = useStudioQuery('history.diff', { from: from.id, to: to.id, path: file.relPath });
  if (diff.error)
    return (
      <ErrorPanel compact title={`Cannot diff ${file.relPath}`} error={toStudioError(diff.error)} onRetry={() => void diff.refetch()} />
    );
  if (!diff.data) return <LoadingState inline label={`Comparing versions of ${file.relPath}…`} />;
  return (
    <ReadOnlyDiff
      modelKey={`versions:${from.id}:${to.id}:${file.relPath}`}
      path={file.relPath}
      before={diff.data.from.content}
      after={diff.data.to.content}
      hunks={diff.data.hunks}
      blocks={diff.data.blocks}
      colorScheme={colorScheme}
      empty="The two versions are identical."
      labels={{ before: `After ${from.id} (${from.summary})`, after: `After ${to.id} (${to.summary})` }}
    />
  );
}

export function HistoryDiffView({ entry, file, entries, colorScheme }: HistoryDiffViewProps) {
  const selectId = useId();
  const others = entries.filter((e) => e.id !== entry.id && touches(e, file));
  const [compareId, setCompareId] = useState<string>(OWN_CHANGE);
  const other = others.find((e) => e.id === compareId) ?? null;
  // Older version on the "from" side, so "+" always means "added later" (entries are newest first).
  const otherIsNewer = other !== null && entries.indexOf(other) < entries.indexOf(entry);
  const [fromEntry, toEntry] = other === null ? [entry, entry] : otherIsNewer ? [entry, other] : [other, entry];
  return (
    <div
      className="history-diff"
      data-testid="history-diff"
      data-mode={other ? 'versions' : 'entry'}
      data-from={fromEntry.id}
      data-to={toEntry.id}
    >
      {others.length > 0 ? (
        <div className="field history-compare">
          <label htmlFor={selectId} className="small">
            Compare with
          </label>
          <select
            id={selectId}
            data-testid="compare-with"
            value={other?.id ?? OWN_CHANGE}
            onChange={(event) => setCompareId(event.target.value)}
          >
            <option value={OWN_CHANGE}>Nothing: what this entry changed</option>
            {others.map((e) => (
              <option key={e.id} value={e.id}>
                {entryLabel(e)}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {other === null ? (
        <OwnChange entry={entry} file={file} colorScheme={colorScheme} />
      ) : (
        <Versions from={fromEntry} to={toEntry} file={file} colorScheme={colorScheme} />
      )}
    </div>
  );
}
