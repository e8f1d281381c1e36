// The right-hand inspector for the open file: diagnostics, provenance of a rollout summary, and who cited it.
import type { FileKind, MemoryVersion } from '../../../shared/domain';
import type { FileDiagnostic, FileDiagnosticsState } from '../main-pane/file-diagnostics';
import type { LineSpan } from '../navigation/location';
import { CitedBySection } from './cited-by-section';
import { DiagnosticsList } from './diagnostics-list';
import { ProvenanceSection } from './provenance-section';

export interface InspectorPanelProps {
  version: MemoryVersion;
  path: string;
  kind: FileKind;
  /** Codex injects the file into every prompt (core's fact): sessions never cite it. */
  injected: boolean;
  diagnostics: FileDiagnosticsState;
  onJump: (span: LineSpan) => void;
  onOpenSession: (threadId: string) => void;
  onRedact?: (diagnostic: FileDiagnostic) => void;
  onRedactAll?: (scope: 'file' | 'root') => void;
}

export function InspectorPanel(props: InspectorPanelProps) {
  const { version, path, kind, injected, diagnostics, onJump, onOpenSession, onRedact, onRedactAll } = props;
  return (
    <aside className="side-panel inspector-panel" aria-label={`Inspector for ${path}`} data-testid="inspector">
      <header className="panel-header">
        <h2>Inspector</h2>
      </header>
      <div className="panel-scroll">
        <DiagnosticsList
          path={path}
          state={diagnostics}
          onJump={onJump}
          {...(onRedact ? { onRedact } : {})}
          {...(onRedactAll ? { onRedactAll } : {})}
        />
        {kind === 'rollout-summary' ? <ProvenanceSection version={version} path={path} onOpenSession={onOpenSession} /> : null}
        {injected ? (
          <section className="inspector-section">
            <h3>Cited by</h3>
            <p className="panel-empty muted">
              Sessions do not cite memory_summary.md: Codex puts it into every session&rsquo;s prompt (up to the budget above). Open the
              files it points to for their citations.
            </p>
          </section>
        ) : (
          <CitedBySection version={version} path={path} onJump={onJump} onOpenSession={onOpenSession} />
        )}
      </div>
    </aside>
  );
}
