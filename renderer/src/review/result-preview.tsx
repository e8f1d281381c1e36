// The result of the decisions so far for one file (`review.result`): exactly what Apply writes, as text or rendered.
import { useState } from 'react';
import type { FileResult } from '../../../shared/review';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { MarkdownPreview } from './markdown-preview';
import { fileLabel } from './proposal-parts';

export interface ResultPreviewProps {
  /** The proposal whose result this is (its texts are asked for while this view is open); null shows no text. */
  proposalId: string | null;
  /** The file's result without its text (what the status line uses). */
  file: FileResult | undefined;
  /** Decisions not saved yet, or the result is refetching: the text may be one step behind. */
  stale: boolean;
  error: Error | null;
  onRetry: () => void;
}

function describe(file: FileResult): string {
  const open = file.unresolvedHunkIds.length;
  if (open > 0)
    return `${open} conflict${open === 1 ? ' is' : 's are'} not resolved yet: this preview keeps the disk's lines there, and Apply waits until each is resolved.`;
  const name = fileLabel(file);
  if (file.action === 'delete') return `Apply deletes ${name} (it moves to Memory Studio's trash).`;
  if (file.action === 'unchanged') return `Apply leaves ${name} as it is: no hunk of it is accepted.`;
  if (file.target === 'project')
    return `Apply writes this to ${name}, the project's own instructions (outside Codex's memory), under the same lock and history.`;
  if (file.target === 'agent-config')
    return `Apply writes this to ${name}, the agent's own configuration (outside Codex's memory), under the same lock and history.`;
  return `Apply writes this to ${name}.`;
}

export function ResultPreview({ proposalId, file, stale: statusStale, error: statusError, onRetry }: ResultPreviewProps) {
  const [rendered, setRendered] = useState(false);
  const withText = useStudioQuery('review.result', proposalId ? { id: proposalId } : skipToken);
  // Never a text older than the decisions: while it is fetched again, none is shown.
  const text = withText.isFetching ? null : (withText.data?.files.find((f) => f.ord === file?.ord)?.content ?? null);
  const stale = statusStale || withText.isFetching;
  const error = statusError ?? withText.error;
  const markdown = file?.relPath.endsWith('.md') ?? false;
  return (
    <section className="result-preview" aria-labelledby="result-title" data-testid="result-section" data-stale={stale ? 'true' : 'false'}>
      <header className="result-header">
        <h3 id="result-title">Result</h3>
        {stale ? <span className="muted small">updating…</span> : null}
        {markdown ? (
          <button type="button" className="button button-small" aria-pressed={rendered} onClick={() => setRendered((value) => !value)}>
            {rendered ? 'Show text' : 'Show rendered'}
          </button>
        ) : null}
      </header>
      {error ? (
        <ErrorPanel
          compact
          title="Cannot compute the result"
          error={toStudioError(error)}
          onRetry={statusError ? onRetry : () => void withText.refetch()}
        />
      ) : null}
      {file ? <p className="muted small">{describe(file)}</p> : null}
      {file && file.action === 'write' && withText.isFetching ? <LoadingState inline label="Computing the result…" /> : null}
      {file && file.action === 'write' && text !== null ? (
        rendered ? (
          <MarkdownPreview source={text} base={file.target === 'memory' ? { version: file.version, path: file.relPath } : undefined} />
        ) : (
          <pre className="result-text" data-testid="result-preview" data-path={file.relPath}>
            {text}
          </pre>
        )
      ) : null}
    </section>
  );
}
