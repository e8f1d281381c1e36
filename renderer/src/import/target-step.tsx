// Step 5, Target: which roots (v1 and/or v2, by Codex's rule) and the exact paths the import writes or removes.
import type { ImportPlan, TargetChange, TargetWrite } from '../../../shared/import';
import { plural } from '../lib/format';

const changeBadges: Record<TargetChange, string> = { create: 'badge-ok', modify: 'badge-info', unchanged: 'badge-muted', delete: 'badge-error' };

function WritesOf({ writes }: { writes: readonly TargetWrite[] }) {
  if (writes.length === 0) return <p className="muted small">Nothing changes in this root.</p>;
  return (
    <ul className="plain-list import-writes">
      {writes.map((write) => (
        <li key={write.absPath} data-testid="target-write" data-version={write.version} data-path={write.relPath} data-change={write.change}>
          <span className={`badge badge-small ${changeBadges[write.change]}`}>{write.change}</span> <code className="break">{write.absPath}</code>
        </li>
      ))}
    </ul>
  );
}

export function TargetStep({ plan }: { plan: ImportPlan }) {
  return (
    <div className="import-step" data-testid="step-target">
      <p className="notice notice-info" data-testid="target-rule">{plan.targetRule}</p>
      {plan.nothingToImport ? (
        <p className="notice notice-info" data-testid="nothing-to-import">
          Nothing to import: the sources are unchanged since the last import.
        </p>
      ) : null}
      {plan.targets.map((target) => {
        const writes = plan.writes.filter((write) => write.version === target.version);
        return (
          <section key={target.version} className="card" data-testid="import-target" data-version={target.version} aria-labelledby={`target-${target.version}`}>
            <h3 id={`target-${target.version}`}>
              <span className="badge badge-version">{target.version}</span> <code className="break">{target.extensionDir}</code>
              <span className="muted">{plural(writes.length, 'change')}</span>
            </h3>
            {target.rootExists ? null : <p className="muted small">The root <code>{target.root}</code> does not exist yet: Apply creates it.</p>}
            <WritesOf writes={writes} />
          </section>
        );
      })}
      {plan.removed.length > 0 ? (
        <section className="card card-warn" aria-labelledby="import-removed-title" data-testid="import-removed">
          <h3 id="import-removed-title">Imported earlier, source gone: removed</h3>
          <ul className="plain-list">
            {plan.removed.map((project) => (
              <li key={`${project.version}:${project.key}`}>
                <span className="badge badge-version">{project.version}</span> <code className="break">{project.targetDir}</code> ({plural(project.files.length, 'file')})
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {plan.messages.map((message) => <p key={message} className="notice notice-info">{message}</p>)}
      <p className="muted small">Next makes a proposal of these changes: nothing is written until you apply it.</p>
    </div>
  );
}
