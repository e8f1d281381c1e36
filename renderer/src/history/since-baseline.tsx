// "Since the last consolidation": the live files against the root's git baseline (read only), each opened as a diff.
import { useState } from 'react';
import type { MemoryVersion } from '../../../shared/domain';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { formatTime, plural } from '../lib/format';
import { ReadOnlyDiff } from '../review/read-only-diff';

function BaselineFile({ version, path, colorScheme }: { version: MemoryVersion; path: string; colorScheme: ColorScheme }) {
  const file = useStudioQuery('history.baselineFile', version && path ? { version, path } : skipToken);
  if (file.error)
    return (
      <ErrorPanel
        compact
        title={`Cannot compare ${path} with the baseline`}
        error={toStudioError(file.error)}
        onRetry={() => void file.refetch()}
      />
    );
  if (!file.data) return <LoadingState inline label={`Reading ${path} at the last consolidation…`} />;
  if (file.data.note) return <p className="notice notice-info">{file.data.note}</p>;
  return (
    <ReadOnlyDiff
      modelKey={`baseline:${version}:${path}`}
      path={path}
      before={file.data.before}
      after={file.data.after}
      hunks={file.data.hunks}
      blocks={file.data.blocks}
      colorScheme={colorScheme}
      empty="No textual change."
      labels={{ before: 'At the last consolidation', after: 'Now' }}
    />
  );
}

export function SinceBaseline({ version, colorScheme }: { version: MemoryVersion; colorScheme: ColorScheme }) {
  const query = useStudioQuery('history.sinceBaseline', version ? { version } : skipToken);
  const data = query.data;
  const [open, setOpen] = useState<string | null>(null);
  const shown = data?.files.find((f) => f.path === open)?.path ?? null;
  return (
    <section className="history-section" data-testid="since-baseline" aria-labelledby="since-baseline-title">
      <h3 id="since-baseline-title">Since the last consolidation ({version})</h3>
      {query.error ? (
        <ErrorPanel
          compact
          title="Cannot compare with the last consolidation"
          error={toStudioError(query.error)}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : !data ? (
        <LoadingState inline label="Comparing with the baseline…" />
      ) : !data.hasBaseline ? (
        <p className="muted">
          This root has no git baseline: Codex commits one after its next successful consolidation (a memory reset, such as codex debug
          clear-memories, removes it).
        </p>
      ) : (
        <>
          <p className="muted small">
            Baseline {data.commit ? <code>{data.commit.slice(0, 12)}</code> : null} from{' '}
            {data.committedAt === null
              ? 'an unknown time'
              : formatTime(data.committedAt < 1e12 ? data.committedAt * 1000 : data.committedAt)}
            : {plural(data.files.length, 'file')} changed since.
          </p>
          {data.notes.map((note) => (
            <p key={note} className="notice notice-info">
              {note}
            </p>
          ))}
          <div className="proposal-files" role="tablist" aria-label="Files changed since the last consolidation">
            {data.files.map((file) => (
              <button
                key={file.path}
                type="button"
                role="tab"
                className="proposal-file"
                data-testid="baseline-file"
                data-path={file.path}
                aria-selected={file.path === shown}
                onClick={() => setOpen(file.path === shown ? null : file.path)}
              >
                {file.path} <span className="badge badge-small">{file.status}</span>{' '}
                <span className="muted small">{plural(file.hunks.length, 'hunk')}</span>
              </button>
            ))}
          </div>
          {shown ? (
            <BaselineFile key={shown} version={version} path={shown} colorScheme={colorScheme} />
          ) : data.files.length > 0 ? (
            <p className="muted small">Pick a file to see its diff.</p>
          ) : null}
        </>
      )}
    </section>
  );
}
