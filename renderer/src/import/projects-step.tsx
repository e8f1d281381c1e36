// Step 2, Projects: each project's key and cwd (editable), whether to include it, and why Claude's folder names cannot be decoded.
import { useEffect, useRef, useState } from 'react';
import type { CwdSource, ImportChoices, ImportPlan, PlanProject } from '../../../shared/import';
import { projectIncluded } from './choice-overlay';
import { looksAbsolute } from './cwd-path';
import { plural } from '../lib/format';
import type { WizardAction } from './wizard-model';

const cwdSourceLabels: Record<CwdSource, string> = {
  session: 'from the newest session file',
  settings: 'from the autoMemoryDirectory setting',
  repo: 'the repository you picked',
  home: 'your home folder (global User Rules)',
  override: 'typed by you',
  scope: 'from the earlier import (its sessions were pruned)',
  none: 'not found: type it',
};

export interface ProjectsStepProps {
  plan: ImportPlan;
  choices: ImportChoices;
  dispatch: (action: WizardAction) => void;
}

/** How long typing pauses before a valid cwd is taken into the plan (so Next follows the field, not the Tab key). */
const CWD_SETTLE_MS = 400;

function cwdError(value: string): string | null {
  // A relative folder is refused here, before it reaches the plan (which would only skip the project with it).
  return value !== '' && !looksAbsolute(value) ? `"${value}" is not an absolute path: enter the full path, e.g. /home/me/src/app.` : null;
}

/** A project's cwd, typed: taken into the plan when typing settles, on Enter or blur, and when the step is left. */
export function CwdField({ project, onCommit }: { project: PlanProject; onCommit: (cwd: string | null) => void }) {
  const [text, setText] = useState(project.cwd ?? '');
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // The text typed since the last commit, waiting for typing to settle (null when nothing waits).
  const waiting = useRef<string | null>(null);
  // The same, for the wizard's Alt+→: a field with typing not taken yet is taken first (`data-pending`).
  const [pending, setPending] = useState(false);
  // The plan's answer shows in the field, unless the person typed on since: that text is newer than the answer.
  useEffect(() => {
    if (waiting.current === null) setText(project.cwd ?? '');
  }, [project.cwd]);
  const commitValue = (raw: string) => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    waiting.current = null;
    setPending(false);
    const value = raw.trim();
    const problem = cwdError(value);
    setError(problem);
    if (problem || value === (project.cwd ?? '')) return;
    onCommit(value === '' || value === project.detectedCwd ? null : value);
  };
  // Leaving the step (Alt+arrow, Next) before typing settled still takes what was typed.
  const latest = useRef(commitValue);
  latest.current = commitValue;
  useEffect(
    () => () => {
      if (waiting.current !== null) latest.current(waiting.current);
    },
    [],
  );
  const commit = () => commitValue(text);
  const change = (raw: string) => {
    setText(raw);
    if (timer.current) clearTimeout(timer.current);
    waiting.current = raw;
    setPending(true);
    // An error shown earlier goes as soon as the text is fixed; a new one waits until typing settles.
    if (!cwdError(raw.trim())) setError(null);
    timer.current = setTimeout(() => commitValue(raw), CWD_SETTLE_MS);
  };
  const id = `import-cwd-${project.key}`;
  const errorId = `${id}-error`;
  return (
    <div className="import-cwd">
      <input
        id={id}
        className="import-input"
        type="text"
        spellCheck={false}
        value={text}
        placeholder="/absolute/path/of/the/project"
        aria-label={`Working directory (cwd) of ${project.key}`}
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
        data-testid="project-cwd"
        data-pending={pending ? 'true' : undefined}
        data-own-enter=""
        onChange={(event) => change(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          commit();
        }}
      />
      {error ? (
        <p id={errorId} className="text-warn small" role="alert" data-testid="project-cwd-error">
          {error}
        </p>
      ) : null}
      <CwdSourceNote project={project} onCommit={onCommit} />
    </div>
  );
}

/** Where the cwd in force comes from, and (for a typed one) the way back to the detected one. */
function CwdSourceNote({ project, onCommit }: { project: PlanProject; onCommit: (cwd: string | null) => void }) {
  return (
    <span className="muted small">
      {cwdSourceLabels[project.cwdSource]}
      {project.cwdSource === 'override' ? (
        <>
          {' · '}
          <button
            type="button"
            className="link-button"
            onClick={() => onCommit(null)}
            aria-label={`Use the detected cwd of ${project.key}`}
          >
            use the detected one{project.detectedCwd ? ` (${project.detectedCwd})` : ''}
          </button>
        </>
      ) : null}
    </span>
  );
}

function ProjectRow({
  project,
  included,
  dispatch,
}: {
  project: PlanProject;
  included: boolean;
  dispatch: (action: WizardAction) => void;
}) {
  const importable = project.files.filter((file) => file.status === 'importable').length;
  return (
    <tr data-testid="project-row" data-key={project.key} data-included={included} data-status={project.status}>
      <td>
        <input
          type="checkbox"
          checked={included}
          aria-label={`Include project ${project.key}`}
          data-testid="project-include"
          onChange={(event) => dispatch({ type: 'project', key: project.key, include: event.currentTarget.checked })}
        />
      </td>
      <td>
        <code className="break">{project.key}</code>
        <div className="muted small break" title="Where the files are read from">
          {project.sourceDir}
        </div>
      </td>
      <td>
        <CwdField project={project} onCommit={(cwd) => dispatch({ type: 'project', key: project.key, cwd })} />
        {included && project.status === 'skipped' && project.reason ? (
          <p className="text-warn small import-reason">{project.reason}</p>
        ) : null}
      </td>
      <td className="num">
        {importable} / {project.files.length}
      </td>
    </tr>
  );
}

/** Why the keys cannot be turned back into paths, and where the cwd comes from instead. */
function KeyNote({ plan }: { plan: ImportPlan }) {
  if (plan.from === 'cursor') {
    return (
      <div className="notice notice-info" data-testid="key-encoding-note">
        <p>
          <strong>Project keys name the target folders; they are never decoded back into paths.</strong> {plan.detection.keyEncodingNote}
        </p>
      </div>
    );
  }
  return (
    <div className="notice notice-info" data-testid="key-encoding-note">
      <p>
        <strong>Project keys are Claude&rsquo;s folder names, and they cannot be decoded reliably.</strong> Claude Code turns a
        project&rsquo;s path into a folder name by replacing every character outside <code>A–Z a–z 0–9</code> with <code>-</code>:{' '}
        <code>/home/paul/idea</code> becomes <code>-home-paul-idea</code>, and <code>a b</code>, <code>a-b</code>, <code>a_b</code> and{' '}
        <code>a.b</code> all map to the same name (very long paths also get a hash). So the cwd comes from the project&rsquo;s newest
        session file that records one; confirm it or type the right one. The key stays as it is: it names the folder under{' '}
        <code>resources/</code>.
      </p>
    </div>
  );
}

export function ProjectsStep({ plan, choices, dispatch }: ProjectsStepProps) {
  return (
    <div className="import-step" data-testid="step-projects">
      <KeyNote plan={plan} />
      {plan.projects.length === 0 ? (
        <p className="muted">No project was found: go back and pick another folder.</p>
      ) : (
        <table className="counts-table import-table" data-testid="projects-table">
          <thead>
            <tr>
              <th>
                <span className="sr-only">Include</span>
              </th>
              <th>Project key</th>
              <th>Working directory (cwd)</th>
              <th className="num">Files importable</th>
            </tr>
          </thead>
          <tbody>
            {plan.projects.map((project) => (
              <ProjectRow key={project.key} project={project} included={projectIncluded(choices, project)} dispatch={dispatch} />
            ))}
          </tbody>
        </table>
      )}
      <p className="muted small">{plural(plan.projects.filter((p) => projectIncluded(choices, p)).length, 'project')} included.</p>
    </div>
  );
}

/** Why Next is not allowed on this step, or null. */
export function projectsBlocked(plan: ImportPlan): string | null {
  const included = plan.projects.filter((project) => project.included);
  if (included.length === 0) return 'Include at least one project.';
  const stuck = included.find((project) => project.status === 'skipped');
  if (stuck) return `${stuck.key}: ${stuck.reason ?? 'cannot be imported'} Fix it or leave the project out.`;
  return null;
}
