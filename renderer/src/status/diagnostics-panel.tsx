// Lists config.toml's diagnostics and each root's lint (rule, message, where) in a panel opened from the status bar.
import type { Diagnostic } from '../../../shared/domain';

export interface DiagnosticGroup {
  title: string;
  diagnostics: readonly Diagnostic[];
}

export interface DiagnosticsPanelProps {
  groups: readonly DiagnosticGroup[];
  onClose: () => void;
}

const severityLabel: Record<Diagnostic['severity'], string> = { error: 'Error', warning: 'Warning', info: 'Info' };

export function DiagnosticsPanel({ groups, onClose }: DiagnosticsPanelProps) {
  const total = groups.reduce((sum, group) => sum + group.diagnostics.length, 0);
  return (
    <section id="diagnostics-panel" className="diagnostics-panel" aria-label="Diagnostics" data-testid="diagnostics-panel">
      <header className="diagnostics-header">
        <h2>Diagnostics</h2>
        <button type="button" className="button button-small" onClick={onClose}>
          Close
        </button>
      </header>
      {total === 0 ? (
        <p className="muted">Nothing to report: config.toml and the memory roots pass Codex's own checks and Memory Studio's lint.</p>
      ) : null}
      {groups
        .filter((group) => group.diagnostics.length > 0)
        .map((group) => (
          <div key={group.title} className="diagnostics-group">
            <h3>{group.title}</h3>
            <ul>
              {group.diagnostics.map((diagnostic, index) => (
                <li key={`${diagnostic.rule}-${index}`} className={`diagnostic diagnostic-${diagnostic.severity}`}>
                  <span className={`badge badge-${diagnostic.severity}`}>{severityLabel[diagnostic.severity]}</span>
                  <span className="diagnostic-message">{diagnostic.message}</span>
                  <span className="diagnostic-where muted">
                    {diagnostic.path ? <code>{diagnostic.path}</code> : null}
                    {diagnostic.line !== undefined ? `:${diagnostic.line}` : null} <span>({diagnostic.rule})</span>
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ))}
    </section>
  );
}
