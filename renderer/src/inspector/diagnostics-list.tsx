// The inspector's diagnostics for the open file: rule, severity and line, with fixes described; Enter jumps.
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { useRovingList } from '../hooks/use-roving-list';
import type { FileDiagnostic, FileDiagnosticsState } from '../main-pane/file-diagnostics';
import { spanOfDiagnostic, type LineSpan } from '../navigation/location';

export interface DiagnosticsListProps {
  path: string;
  state: FileDiagnosticsState;
  onJump: (span: LineSpan) => void;
  /** Proposes the fix of a `secrets/*` diagnostic as a reviewed change; absent where redaction is not offered. */
  onRedact?: (diagnostic: FileDiagnostic) => void;
  /** Proposes, as one change, the redaction of every secret of this file or of every file of its root. */
  onRedactAll?: (scope: 'file' | 'root') => void;
}

/** "Redact all" for a file with secrets: one proposal for the file, or one for the whole memory folder. */
function RedactAll({ count, onRedactAll }: { count: number; onRedactAll: (scope: 'file' | 'root') => void }) {
  return (
    <div className="inspector-redact-all" role="group" aria-label="Redact every secret">
      <button type="button" className="button button-small" data-testid="redact-all-file" onClick={() => onRedactAll('file')}>
        Redact all in this file ({count})
      </button>
      <button type="button" className="button button-small" data-testid="redact-all-root" onClick={() => onRedactAll('root')}>
        Redact all in this root
      </button>
    </div>
  );
}

const severityLabel = { error: 'Error', warning: 'Warning', info: 'Info' } as const;

export function DiagnosticsList({ path, state, onJump, onRedact, onRedactAll }: DiagnosticsListProps) {
  const { diagnostics, pending, lintError } = state;
  const roving = useRovingList(diagnostics.length);
  const secrets = diagnostics.filter((d) => d.rule.startsWith('secrets/') && d.fixable).length;
  return (
    <section className="inspector-section" aria-labelledby="inspector-diagnostics">
      <h3 id="inspector-diagnostics">
        Diagnostics <span className="muted">{pending ? '…' : diagnostics.length}</span>
      </h3>
      {lintError ? (
        <ErrorPanel compact title={`Cannot lint the root of ${path}`} error={toStudioError(lintError)} onRetry={state.retryLint} />
      ) : null}
      {diagnostics.length === 0 && !pending && !lintError ? (
        <p className="panel-empty muted">
          No problems found in {path}: Codex&rsquo;s validators, the format rules and the secret scan pass.
        </p>
      ) : null}
      {diagnostics.length === 0 && pending ? <p className="panel-empty muted">Checking {path}…</p> : null}
      {onRedactAll && secrets > 0 ? <RedactAll count={secrets} onRedactAll={onRedactAll} /> : null}
      <ul className="inspector-list" ref={roving.listRef}>
        {diagnostics.map((d, index) => (
          <li key={`${d.rule}-${d.line}-${index}`}>
            <button
              type="button"
              {...roving.itemProps(index)}
              className="inspector-row"
              data-testid="inspector-diagnostic"
              data-rule={d.rule}
              data-line={d.line}
              onClick={() => onJump(spanOfDiagnostic(d))}
            >
              <span className="inspector-row-head">
                <span className={`badge badge-small badge-${d.severity}`}>{severityLabel[d.severity]}</span>
                <code className="inspector-rule">{d.rule}</code>
                <span className="muted inspector-line">{d.line === d.endLine ? `line ${d.line}` : `lines ${d.line}–${d.endLine}`}</span>
              </span>
              <span className="inspector-message">{d.message}</span>
              {d.fixDescription ? (
                <span className="inspector-fix">
                  <span className="muted">Fix available: </span>
                  {d.fixDescription}
                </span>
              ) : null}
            </button>
            {onRedact && d.rule.startsWith('secrets/') && d.fixable ? (
              <button
                type="button"
                className="button button-small inspector-redact"
                data-testid="redact-button"
                onClick={() => onRedact(d)}
              >
                Redact (propose)
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
