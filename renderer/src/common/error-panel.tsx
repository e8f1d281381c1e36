// Shows a StudioError the way every error should read: what happened, to which file, what to do, and Retry.
import type { StudioError } from '../../../shared/result';

export interface ErrorPanelProps {
  error: StudioError;
  title?: string;
  onRetry?: () => void;
  retrying?: boolean;
  compact?: boolean;
}

const kindTitles: Record<StudioError['kind'], string> = {
  NotFound: 'Not found',
  Invalid: 'Cannot do that',
  Conflict: 'Changed elsewhere',
  Locked: 'Locked',
  Busy: 'Busy',
  Unsupported: 'Cannot show this',
  Internal: 'Something went wrong',
};

/** Messages quote commands and names in `backticks`; show those as code rather than raw punctuation. */
function RichText({ text }: { text: string }) {
  const parts = text.split('`');
  // An odd count of backticks means an unmatched one: show the text as it is.
  if (parts.length % 2 === 0) return <>{text}</>;
  return <>{parts.map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))}</>;
}

export function ErrorPanel({ error, title, onRetry, retrying = false, compact = false }: ErrorPanelProps) {
  return (
    <section
      className={compact ? 'error-panel error-panel-compact' : 'error-panel'}
      data-testid="error-panel"
      data-error-kind={error.kind}
      role="alert"
    >
      <h2 className="error-title">{title ?? kindTitles[error.kind]}</h2>
      <p className="error-message">
        <RichText text={error.message} />
      </p>
      {error.path ? (
        <p className="error-path">
          <span className="muted">Path: </span>
          <code>{error.path}</code>
        </p>
      ) : null}
      {error.hint ? (
        <p className="error-hint">
          <RichText text={error.hint} />
        </p>
      ) : null}
      {onRetry ? (
        <button type="button" className="button" onClick={onRetry} disabled={retrying}>
          {retrying ? 'Retrying…' : 'Retry'}
        </button>
      ) : null}
    </section>
  );
}
