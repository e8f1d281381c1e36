// Shows a StudioError the way every error should read: what happened, to which file, what to do, and Retry where it helps.
import type { FaultKind, StudioError } from '../../../shared/result';

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
  Cancelled: 'Cancelled',
  Unsupported: 'Cannot show this',
  Internal: 'Something went wrong',
};

/** A fault of the machine or of Codex's files says what it is, whatever its kind. */
const faultTitles: Record<FaultKind, string> = {
  'codex-db-missing': 'Codex’s database is missing',
  'codex-db-corrupt': 'Codex’s database is damaged',
  'codex-db-locked': 'Codex’s database is locked',
  'codex-db-schema': 'Codex’s database is not as expected',
  'codex-db-unreadable': 'Codex’s database cannot be read',
  'disk-full': 'Disk full',
  'data-unwritable': 'The data folder cannot be written',
  'staging-write': 'The staging copy could not be written',
};

/** Faults that can pass by themselves or once the person frees space: Retry helps there, whatever the kind. */
const PASSING_FAULTS: ReadonlySet<FaultKind> = new Set(['codex-db-locked', 'disk-full', 'data-unwritable', 'staging-write']);

/** Messages quote commands and names in `backticks`; show those as code rather than raw punctuation. */
function RichText({ text }: { text: string }) {
  const parts = text.split('`');
  // An odd count of backticks means an unmatched one: show the text as it is.
  if (parts.length % 2 === 0) return <>{text}</>;
  return <>{parts.map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part))}</>;
}

/**
 * Retrying the same request only helps when something may have changed in between: a lock released, a file
 * created, a passing failure. A file that cannot be shown (binary, too large, not UTF-8, a symlink or a pipe) or a
 * request that is not valid gives the same answer again; those panels offer no Retry, and are not styled as alarms.
 */
export function retryCanHelp(kind: StudioError['kind'], fault?: FaultKind): boolean {
  if (fault) return PASSING_FAULTS.has(fault);
  return kind !== 'Unsupported' && kind !== 'Invalid';
}

export function ErrorPanel({ error, title, onRetry, retrying = false, compact = false }: ErrorPanelProps) {
  const classes = ['error-panel', compact ? 'error-panel-compact' : '', error.kind === 'Unsupported' ? 'error-panel-quiet' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <section className={classes} data-testid="error-panel" data-error-kind={error.kind} data-fault={error.fault} role="alert">
      <h2 className="error-title">{title ?? (error.fault ? faultTitles[error.fault] : kindTitles[error.kind])}</h2>
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
      {onRetry && retryCanHelp(error.kind, error.fault) ? (
        <button type="button" className="button" onClick={onRetry} disabled={retrying}>
          {retrying ? 'Retrying…' : 'Retry'}
        </button>
      ) : null}
    </section>
  );
}
