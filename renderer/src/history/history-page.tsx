// The History view: every applied proposal and external change as a timeline (overall or for the open file), diffs, Revert.
import { useState } from 'react';
import type { MemoryVersion } from '../../../shared/domain';
import type { HistoryEntry } from '../../../shared/review';
import { useStudioMutation, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { useRovingList } from '../hooks/use-roving-list';
import { formatBytes, formatTime, plural } from '../lib/format';
import { HistoryDiffView } from './history-diff-view';
import { fileLabel, TargetBadge } from '../review/proposal-parts';
import { kindLabels } from './history-labels';
import { SinceBaseline } from './since-baseline';

export interface HistoryPageProps {
  /** The file open in the Files view, to offer its own timeline. */
  openFile: { version: MemoryVersion; path: string } | null;
  versions: readonly MemoryVersion[];
  preferred: MemoryVersion | null;
  onOpenProposal: (id: string) => void;
  colorScheme: ColorScheme;
}

function EntryList({
  entries,
  selected,
  onSelect,
}: {
  entries: readonly HistoryEntry[];
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  const roving = useRovingList(entries.length);
  if (entries.length === 0)
    return <p className="panel-empty muted">No history yet: applied proposals and changes Codex makes on disk appear here.</p>;
  return (
    <ol className="inbox-list" aria-label="History entries" ref={roving.listRef}>
      {entries.map((entry, index) => (
        <li key={entry.id}>
          <button
            type="button"
            {...roving.itemProps(index)}
            className="inbox-row"
            aria-current={entry.id === selected ? 'true' : undefined}
            data-testid="history-entry"
            data-id={entry.id}
            data-kind={entry.kind}
            onClick={() => onSelect(entry.id)}
          >
            <span className="inbox-title" title={entry.summary}>
              {entry.summary}
            </span>
            <span className="inbox-meta">
              <span className="badge badge-small">{kindLabels[entry.kind]}</span>
              <span className="muted">{plural(entry.files.length, 'file')}</span>
            </span>
            <span className="muted small">{formatTime(entry.at)}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}

function EntryDetail({
  entry,
  entries,
  onOpenProposal,
  colorScheme,
}: {
  entry: HistoryEntry;
  entries: readonly HistoryEntry[];
  onOpenProposal: (id: string) => void;
  colorScheme: ColorScheme;
}) {
  const revert = useStudioMutation('history.revert');
  const [fileIndex, setFileIndex] = useState(0);
  const file = entry.files[fileIndex] ?? entry.files[0];
  return (
    <section className="history-entry-detail" data-testid="history-detail" data-id={entry.id} aria-labelledby="entry-title">
      <header className="result-header">
        <h3 id="entry-title">{entry.summary}</h3>
        <span className="muted small">{formatTime(entry.at)}</span>
        <button
          type="button"
          className="button button-small"
          data-testid="revert-button"
          disabled={revert.isPending}
          onClick={() => revert.mutate({ entryId: entry.id }, { onSuccess: (proposal) => onOpenProposal(proposal.id) })}
        >
          {revert.isPending ? 'Proposing…' : 'Revert (as a new proposal)'}
        </button>
      </header>
      {revert.error ? <ErrorPanel compact title="Cannot revert this entry" error={toStudioError(revert.error)} /> : null}
      <SecretsRemoved entry={entry} />
      <div className="proposal-files" role="tablist" aria-label="Files of this entry">
        {entry.files.map((f, index) => (
          <button
            key={`${f.root}/${f.relPath}`}
            type="button"
            role="tab"
            className="proposal-file"
            data-testid="history-file"
            data-path={f.relPath}
            data-version={f.version}
            data-target={f.target}
            aria-selected={index === fileIndex}
            onClick={() => setFileIndex(index)}
            title={`${f.root}/${f.relPath}`}
          >
            <TargetBadge file={f} /> {fileLabel(f)} <span className="muted small">{sizeChange(f)}</span>
          </button>
        ))}
      </div>
      {file ? (
        <HistoryDiffView
          key={`${entry.id}:${file.root}:${file.relPath}`}
          entry={entry}
          file={file}
          entries={entries}
          colorScheme={colorScheme}
        />
      ) : null}
    </section>
  );
}

/** Core's count of the secrets this change took out: they are not kept, so a revert brings those lines back masked. */
export function SecretsRemoved({ entry }: { entry: HistoryEntry }) {
  const count = entry.files.reduce((n, f) => n + (f.secretsRemoved ?? 0), 0);
  if (count === 0) return null;
  return (
    <p className="muted small" data-testid="history-secrets-removed">
      This change removed {count === 1 ? 'a secret' : `${count} secrets`}. Memory Studio never keeps a secret, so it cannot be reverted to{' '}
      {count === 1 ? 'it' : 'them'}: a revert restores {count === 1 ? 'that line' : 'those lines'} masked (abcd****).
    </p>
  );
}

/** "created", "deleted", or the size before -> after, so the tabs say what happened before a file is opened. */
function sizeChange(f: HistoryEntry['files'][number]): string {
  if (f.beforeSha256 === null) return 'created';
  if (f.afterSha256 === null) return 'deleted';
  return f.beforeSize !== null && f.afterSize !== null ? `${formatBytes(f.beforeSize)} → ${formatBytes(f.afterSize)}` : '';
}

export function HistoryPage({ openFile, versions, preferred, onOpenProposal, colorScheme }: HistoryPageProps) {
  const [onlyFile, setOnlyFile] = useState(false);
  const scope = onlyFile && openFile ? openFile : null;
  const list = useStudioQuery('history.list', {
    ...(scope?.version ? { version: scope.version } : {}),
    ...(scope?.path ? { path: scope.path } : {}),
  });
  const [selected, setSelected] = useState<string | null>(null);
  const [baselineVersion, setBaselineVersion] = useState<MemoryVersion | null>(null);
  const entries = list.data ?? [];
  const entry = entries.find((e) => e.id === selected) ?? entries[0];
  const version = baselineVersion ?? preferred;
  return (
    <div className="review-layout" data-testid="history-view">
      <aside className="side-panel review-inbox" aria-label="History">
        <header className="panel-header">
          <h2>History</h2>
          {openFile ? (
            <label className="toggle small history-only-file" title={`Only the history of ${openFile.path}`}>
              <input type="checkbox" checked={onlyFile} onChange={(event) => setOnlyFile(event.target.checked)} />{' '}
              <span className="truncate" data-testid="history-only-label">
                Only {openFile.path}
              </span>
            </label>
          ) : null}
        </header>
        <div className="panel-scroll">
          {list.error ? (
            <ErrorPanel compact title="Cannot read the history" error={toStudioError(list.error)} onRetry={() => void list.refetch()} />
          ) : null}
          {list.data ? (
            <EntryList entries={entries} selected={entry?.id ?? null} onSelect={setSelected} />
          ) : list.isPending && !list.error ? (
            <LoadingState inline label="Reading history…" />
          ) : null}
        </div>
      </aside>
      <main className="review-main history-main" aria-label="History entry">
        {entry ? (
          <EntryDetail key={entry.id} entry={entry} entries={entries} onOpenProposal={onOpenProposal} colorScheme={colorScheme} />
        ) : null}
        {versions.length > 1 ? (
          <div className="segmented" role="group" aria-label="Root for the baseline comparison">
            {versions.map((v) => (
              <button key={v} type="button" className="segment" aria-pressed={v === version} onClick={() => setBaselineVersion(v)}>
                {v}
              </button>
            ))}
          </div>
        ) : null}
        {version ? <SinceBaseline version={version} colorScheme={colorScheme} /> : null}
      </main>
    </div>
  );
}
