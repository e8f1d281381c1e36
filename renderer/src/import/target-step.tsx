// Step 5, Target: which roots (v1 and/or v2, by Codex's rule), the exact paths written, the removals (one switch keeps
// them all) and the earlier imports kept because they came from another source.
import type { Dispatch } from 'react';
import type { ImportChoices, ImportPlan, KeptImport, TargetChange, TargetWrite } from '../../../shared/import';
import { plural } from '../lib/format';
import type { WizardAction } from './wizard-model';

const changeBadges: Record<TargetChange, string> = {
  create: 'badge-ok',
  modify: 'badge-info',
  unchanged: 'badge-muted',
  delete: 'badge-error',
};

function WritesOf({ writes }: { writes: readonly TargetWrite[] }) {
  if (writes.length === 0) return <p className="muted small">Nothing is written in this root.</p>;
  return (
    <ul className="plain-list import-writes">
      {writes.map((write) => (
        <li
          key={write.absPath}
          data-testid="target-write"
          data-version={write.version}
          data-path={write.relPath}
          data-change={write.change}
        >
          <span className={`badge badge-small ${changeBadges[write.change]}`}>{write.change}</span>{' '}
          <code className="break">{write.absPath}</code>
        </li>
      ))}
    </ul>
  );
}

function Removals({ plan, keep, dispatch }: { plan: ImportPlan; keep: boolean; dispatch: Dispatch<WizardAction> }) {
  const keptByYou = plan.kept.filter((k) => k.why === 'kept-by-you');
  const listed = keep ? keptByYou : plan.removed;
  if (listed.length === 0) return null;
  const files = listed.reduce((n, p) => n + p.files.length, 0);
  return (
    <section
      className="card card-warn"
      aria-labelledby="import-removed-title"
      data-testid="import-removed"
      data-keep={keep ? 'true' : 'false'}
    >
      <h3 id="import-removed-title">
        Removed: imported earlier from this source, which no longer has them{' '}
        <span className="muted">
          {plural(listed.length, 'folder')}, {plural(files, 'file')}
        </span>
      </h3>
      <p className="small">
        {keep
          ? 'You keep them: the proposal removes nothing.'
          : 'These folders came from this same source, and their projects are gone from it, so the proposal deletes them (each deletion is a hunk you can still reject at Review).'}
      </p>
      <label className="toggle">
        <input
          type="checkbox"
          data-testid="keep-removed"
          checked={keep}
          onChange={(event) => dispatch({ type: 'keepRemoved', keep: event.target.checked })}
        />{' '}
        Keep them all (remove nothing)
      </label>
      <ul className="plain-list">
        {listed.map((project) => (
          <li key={`${project.version}:${project.key}`} data-testid="removed-project" data-key={project.key} data-version={project.version}>
            <span className="badge badge-version">{project.version}</span> <code className="break">{project.targetDir}</code> (
            {plural(project.files.length, 'file')})
          </li>
        ))}
      </ul>
    </section>
  );
}

function Kept({ kept }: { kept: readonly KeptImport[] }) {
  if (kept.length === 0) return null;
  return (
    <section className="card" aria-labelledby="import-kept-title" data-testid="import-kept">
      <h3 id="import-kept-title">
        Kept: from another source <span className="muted">{plural(kept.length, 'folder')}</span>
      </h3>
      <p className="muted small">Imports that did not come from this source are never touched by it.</p>
      <ul className="plain-list">
        {kept.map((k) => (
          <li key={`${k.version}:${k.key}`} data-testid="kept-import" data-key={k.key} data-version={k.version}>
            <span className="badge badge-version">{k.version}</span> <code className="break">{k.targetDir}</code> (
            {plural(k.files.length, 'file')}): {k.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function TargetStep({ plan, choices, dispatch }: { plan: ImportPlan; choices: ImportChoices; dispatch: Dispatch<WizardAction> }) {
  return (
    <div className="import-step" data-testid="step-target">
      <p className="notice notice-info" data-testid="target-rule">
        {plan.targetRule}
      </p>
      {plan.nothingToImport ? (
        <p className="notice notice-info" data-testid="nothing-to-import">
          Nothing to import: the sources are unchanged since the last import.
        </p>
      ) : null}
      {plan.targets.map((target) => {
        const writes = plan.writes.filter((write) => write.version === target.version && !write.removal);
        return (
          <section
            key={target.version}
            className="card"
            data-testid="import-target"
            data-version={target.version}
            aria-labelledby={`target-${target.version}`}
          >
            <h3 id={`target-${target.version}`}>
              <span className="badge badge-version">{target.version}</span> <code className="break">{target.extensionDir}</code>
              <span className="muted">{plural(writes.length, 'change')}</span>
            </h3>
            {target.rootExists ? null : (
              <p className="muted small">
                The root <code>{target.root}</code> does not exist yet: Apply creates it.
              </p>
            )}
            <WritesOf writes={writes} />
          </section>
        );
      })}
      <Removals plan={plan} keep={choices.keepRemoved === true} dispatch={dispatch} />
      <Kept kept={plan.kept.filter((k) => k.why === 'from-another-source')} />
      {plan.messages.map((message) => (
        <p key={message} className="notice notice-info">
          {message}
        </p>
      ))}
      <p className="muted small">Next makes a proposal of these changes: nothing is written until you apply it.</p>
    </div>
  );
}
