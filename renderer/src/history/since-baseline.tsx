// "Since the last consolidation": the live files against the root's git baseline (read only), or why it cannot be shown.
import type { MemoryVersion } from '../../../shared/domain';
import { useSinceBaseline } from '../api/review-queries';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { formatTime, plural } from '../lib/format';
import { HunkPreview } from './hunk-preview';

export function SinceBaseline({ version }: { version: MemoryVersion }) {
  const query = useSinceBaseline(version);
  const data = query.data;
  return (
    <section className="history-section" data-testid="since-baseline" aria-labelledby="since-baseline-title">
      <h3 id="since-baseline-title">Since the last consolidation ({version})</h3>
      {query.error ? (
        <ErrorPanel compact title="Cannot compare with the last consolidation" error={toStudioError(query.error)} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      ) : !data ? (
        <LoadingState inline label="Comparing with the baseline…" />
      ) : !data.hasBaseline ? (
        <p className="muted">This root has no git baseline yet: Codex commits one after its first successful consolidation.</p>
      ) : (
        <>
          <p className="muted small">
            Baseline {data.commit ? <code>{data.commit.slice(0, 12)}</code> : null} from {data.committedAt === null ? 'an unknown time' : formatTime(data.committedAt < 1e12 ? data.committedAt * 1000 : data.committedAt)}:{' '}
            {plural(data.files.length, 'file')} changed since.
          </p>
          {data.notes.map((note) => (
            <p key={note} className="notice notice-info">{note}</p>
          ))}
          <ul className="plain-list">
            {data.files.map((file) => (
              <li key={file.path} data-testid="baseline-file">
                <details>
                  <summary>
                    <code>{file.path}</code> <span className="badge badge-small">{file.status}</span>
                  </summary>
                  <HunkPreview hunks={file.hunks} empty="No textual changes." />
                </details>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
