// Step 4, Secrets: every finding in an included file (rule, file, line, masked preview) with Redact or Skip file.
import type { ImportChoices, ImportPlan, PlanFile, SecretAction, SecretFinding } from '../../../shared/import';
import { plural } from '../lib/format';
import { fileIncluded, findingAction, projectIncluded } from './choice-overlay';
import type { WizardAction } from './wizard-model';

export interface SecretsStepProps {
  plan: ImportPlan;
  choices: ImportChoices;
  dispatch: (action: WizardAction) => void;
}

interface FileWithFindings {
  project: string;
  file: PlanFile;
}

/** Included files with at least one finding, in the plan's order. */
export function filesWithFindings(plan: ImportPlan, choices: ImportChoices): FileWithFindings[] {
  return plan.projects
    .filter((project) => projectIncluded(choices, project))
    .flatMap((project) =>
      project.files
        .filter((file) => file.findings.length > 0 && fileIncluded(choices, project.key, file))
        .map((file) => ({ project: project.key, file })),
    );
}

/** Skip file is a choice for the whole file; Redact on one finding makes a skipped file's other findings open again. */
function changesFor(file: PlanFile, finding: SecretFinding, action: SecretAction, current: (f: SecretFinding) => SecretAction | null) {
  if (action === 'skip-file') return file.findings.map((f) => ({ findingId: f.id, action }));
  return file.findings.map((f) => ({
    findingId: f.id,
    action: f.id === finding.id ? action : current(f) === 'skip-file' ? null : current(f),
  }));
}

function FindingRow({
  entry,
  finding,
  current,
  choose,
}: {
  entry: FileWithFindings;
  finding: SecretFinding;
  current: SecretAction | null;
  choose: (action: SecretAction) => void;
}) {
  const name = `secret-${entry.project}-${entry.file.relPath}-${finding.id}`;
  const where = `${entry.file.relPath} line ${finding.line}`;
  return (
    <li
      className="import-finding"
      data-testid="secret-finding"
      data-rule={finding.rule}
      data-line={finding.line}
      data-action={current ?? 'unresolved'}
    >
      <div className="import-finding-head">
        <span className="badge badge-error badge-small">{finding.rule}</span>
        <span>
          line {finding.line}, column {finding.column}
        </span>
        {current === null ? <span className="text-danger small">unresolved</span> : null}
      </div>
      <pre className="import-finding-preview" aria-label={`Masked line ${finding.line}`}>
        {finding.preview}
      </pre>
      <fieldset className="segmented" aria-label={`What to do with the ${finding.rule} secret in ${where}`}>
        {(['redact', 'skip-file'] as const).map((action) => (
          <label key={action} className={current === action ? 'segment is-checked' : 'segment'}>
            <input
              type="radio"
              name={name}
              value={action}
              checked={current === action}
              data-testid={`secret-${action}`}
              onChange={() => choose(action)}
            />
            {action === 'redact' ? 'Redact' : 'Skip file'}
          </label>
        ))}
      </fieldset>
    </li>
  );
}

function FileFindings({
  entry,
  choices,
  dispatch,
}: {
  entry: FileWithFindings;
  choices: ImportChoices;
  dispatch: (action: WizardAction) => void;
}) {
  const current = (finding: SecretFinding) => findingAction(choices, entry.project, entry.file.relPath, finding);
  const send = (changes: ReadonlyArray<{ findingId: string; action: SecretAction | null }>) =>
    dispatch({ type: 'secrets', project: entry.project, relPath: entry.file.relPath, changes });
  return (
    <section
      className="card import-secret-file"
      data-testid="secret-file"
      data-path={entry.file.relPath}
      aria-label={`Secrets in ${entry.project}/${entry.file.relPath}`}
    >
      <h3>
        <code className="break">
          {entry.project}/{entry.file.relPath}
        </code>
        <span className="muted">{plural(entry.file.findings.length, 'finding')}</span>
        <button
          type="button"
          className="button button-small"
          data-testid="redact-file"
          onClick={() => send(entry.file.findings.map((f) => ({ findingId: f.id, action: 'redact' })))}
        >
          Redact all in this file
        </button>
      </h3>
      <ul className="plain-list">
        {entry.file.findings.map((finding) => (
          <FindingRow
            key={finding.id}
            entry={entry}
            finding={finding}
            current={current(finding)}
            choose={(action) => send(changesFor(entry.file, finding, action, current))}
          />
        ))}
      </ul>
    </section>
  );
}

export function SecretsStep({ plan, choices, dispatch }: SecretsStepProps) {
  const entries = filesWithFindings(plan, choices);
  if (entries.length === 0) {
    return (
      <div className="import-step" data-testid="step-secrets">
        <p className="notice notice-info" data-testid="no-secrets">
          No secret was found in the included files.
        </p>
      </div>
    );
  }
  return (
    <div className="import-step" data-testid="step-secrets">
      <p className="muted">
        Redact replaces the secret with <code>[REDACTED_SECRET]</code> in the imported copy (the source is never changed); Skip file leaves
        the whole file out. A file with an unresolved finding cannot be imported.
      </p>
      {entries.map((entry) => (
        <FileFindings key={`${entry.project}/${entry.file.relPath}`} entry={entry} choices={choices} dispatch={dispatch} />
      ))}
    </div>
  );
}

export function secretsBlocked(plan: ImportPlan, choices: ImportChoices): string | null {
  const open = filesWithFindings(plan, choices).filter((entry) =>
    entry.file.findings.some((f) => findingAction(choices, entry.project, entry.file.relPath, f) === null),
  );
  if (open.length === 0) return null;
  const names = open
    .slice(0, 3)
    .map((entry) => entry.file.relPath)
    .join(', ');
  return `Unresolved secrets in ${plural(open.length, 'file')} (${names}${open.length > 3 ? ', …' : ''}): choose Redact or Skip file for each finding.`;
}
