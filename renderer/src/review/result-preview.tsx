// The result of the decisions so far for one file (`review.result`): exactly what Apply writes, as text or rendered.
import { useState } from 'react';
import type { FileResult } from '../../../shared/review';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { MarkdownPreview } from './markdown-preview';
import { fileLabel } from './proposal-parts';

export interface ResultPreviewProps {
  file: FileResult | undefined;
  /** Decisions not saved yet, or the result is refetching: the text may be one step behind. */
  stale: boolean;
  error: Error | null;
  onRetry: () => void;
}

function describe(file: FileResult): string {
  const open = file.unresolvedHunkIds.length;
  if (open > 0) return `${open} conflict${open === 1 ? ' is' : 's are'} not resolved yet: this preview keeps the disk's lines there, and Apply waits until each is resolved.`;
  const name = fileLabel(file);
  if (file.action === 'delete') return `Apply deletes ${name} (it moves to Memory Studio's trash).`;
  if (file.action === 'unchanged') return `Apply leaves ${name} as it is: no hunk of it is accepted.`;
  if (file.target === 'project') return `Apply writes this to ${name}, the project's own instructions (outside Codex's memory), under the same lock and history.`;
  return `Apply writes this to ${name}.`;
}

export function ResultPreview({ file, stale, error, onRetry }: ResultPreviewProps) {
  const [rendered, setRendered] = useState(false);
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
      {error ? <ErrorPanel compact title="Cannot compute the result" error={toStudioError(error)} onRetry={onRetry} /> : null}
      {file ? <p className="muted small">{describe(file)}</p> : null}
      {file && file.action === 'write' && file.content !== null ? (
        rendered ? (
          <MarkdownPreview source={file.content} />
        ) : (
          <pre className="result-text" data-testid="result-preview" data-path={file.relPath}>
            {file.content}
          </pre>
        )
      ) : null}
    </section>
  );
}
