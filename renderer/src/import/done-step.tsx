// Step 8, Done: what changed (files per root), that consolidation was enqueued, and "Consolidate now".
import type { MemoryVersion } from '../../../shared/domain';
import type { AppliedProposal } from '../../../shared/review';
import { plural } from '../lib/format';

export interface DoneStepProps {
  applied: AppliedProposal | null;
  /** Absolute root of each version, for the listing. */
  roots: Partial<Record<MemoryVersion, string>>;
  enqueue: readonly MemoryVersion[];
  onConsolidate: () => void;
  onOpenHistory: () => void;
  onRestart: () => void;
}

function Written({ applied, roots }: { applied: AppliedProposal; roots: DoneStepProps['roots'] }) {
  const versions = [...new Set(applied.written.map((w) => w.version))].sort();
  if (versions.length === 0) return <p className="muted">No file needed writing.</p>;
  return (
    <>
      {versions.map((version) => {
        const files = applied.written.filter((w) => w.version === version);
        return (
          <section key={version} className="card" data-testid="done-root" data-version={version} aria-label={`Changed in ${version}`}>
            <h3>
              <span className="badge badge-version">{version}</span> <code className="break">{roots[version] ?? version}</code>
              <span className="muted">{plural(files.length, 'file')}</span>
            </h3>
            <ul className="plain-list">
              {files.map((file) => (
                <li key={file.relPath} data-testid="done-file" data-path={file.relPath}>
                  {file.action === 'delete' ? 'deleted' : 'wrote'} <code className="break">{file.relPath}</code>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </>
  );
}

export function DoneStep({ applied, roots, enqueue, onConsolidate, onOpenHistory, onRestart }: DoneStepProps) {
  return (
    <div className="import-step" data-testid="step-done">
      <p className="notice notice-info" role="status" data-testid="import-done">
        <strong>Imported.</strong>{' '}
        {applied ? (
          <>
            History entry <code>{applied.entry.id}</code> ({applied.entry.summary}) records each file&rsquo;s source, modification time and
            hash.
          </>
        ) : null}
      </p>
      {applied ? <Written applied={applied} roots={roots} /> : null}
      {enqueue.length > 0 ? (
        <p data-testid="consolidation-enqueued">
          Consolidation was enqueued in the memory DB of {enqueue.map((v) => `${v}${roots[v] ? ` (${roots[v]})` : ''}`).join(' and ')}:
          Codex folds the imported memory in at its next consolidation, or run it now.
        </p>
      ) : (
        <p data-testid="consolidation-enqueued">
          No memory DB exists in the touched roots yet, so nothing was enqueued: Codex picks the import up at its first consolidation, or
          run it now.
        </p>
      )}
      <div className="import-done-actions">
        <button type="button" className="button button-primary" data-testid="consolidate-now" onClick={onConsolidate}>
          Consolidate now
        </button>
        <button type="button" className="button" onClick={onOpenHistory}>
          Show in History
        </button>
        <button type="button" className="button" data-testid="import-again" onClick={onRestart}>
          Start another import
        </button>
      </div>
    </div>
  );
}
