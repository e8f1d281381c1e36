// Step 3, Files: per included project its files with kind and type chips and an include checkbox, beside the selected file's preview.
import { useState } from 'react';
import type { ImportChoices, ImportFileKind, ImportPlan, ImportPlanInput, PlanFile, PlanProject } from '../../../shared/import';
import { fileIncluded } from './choice-overlay';
import { plural } from '../lib/format';
import { FilePreview } from './file-preview';
import { SkippedList } from './skipped-list';
import type { WizardAction } from './wizard-model';

const kindLabels: Record<ImportFileKind, { label: string; title: string }> = {
  index: { label: 'index', title: 'MEMORY.md: the index of one-line pointers' },
  topic: { label: 'topic', title: 'A memory file the index links to' },
  orphan: { label: 'orphan', title: 'A memory file the index does not link to' },
  rule: { label: 'rule', title: 'A Cursor project rule' },
  'user-rules': { label: 'user rules', title: "Cursor's User Rules (state.vscdb)" },
};

export interface FilesStepProps {
  plan: ImportPlan;
  /** The plan's input: a large plan leaves file texts out and the preview asks for them with it. */
  input: ImportPlanInput;
  choices: ImportChoices;
  dispatch: (action: WizardAction) => void;
}

const fileId = (project: string, relPath: string) => `${project}\u0000${relPath}`;

interface FileRowProps {
  project: string;
  file: PlanFile;
  included: boolean;
  selected: boolean;
  onSelect: () => void;
  dispatch: (action: WizardAction) => void;
}

function FileRow({ project, file, included, selected, onSelect, dispatch }: FileRowProps) {
  const kind = kindLabels[file.kind];
  const refused = file.status === 'skipped' && !file.readable;
  return (
    <li
      className={selected ? 'import-file is-selected' : 'import-file'}
      data-testid="import-file"
      data-path={file.relPath}
      data-status={file.status}
      data-included={included}
    >
      <input
        type="checkbox"
        checked={included}
        disabled={refused}
        aria-label={`Include ${file.relPath} of ${project}`}
        data-testid="file-include"
        onChange={(event) => dispatch({ type: 'file', project, relPath: file.relPath, include: event.currentTarget.checked })}
      />
      <button type="button" className="import-file-name" aria-pressed={selected} aria-label={`Preview ${file.relPath}`} onClick={onSelect}>
        <code className="break">{file.relPath}</code>
      </button>
      <span className="chips">
        <span className={`chip import-kind import-kind-${file.kind}`} title={kind.title} data-testid="kind-chip">
          {kind.label}
        </span>
        {file.frontMatter.type ? (
          <span className="chip import-type" data-testid="type-chip">
            {file.frontMatter.type}
          </span>
        ) : null}
        {file.findings.length > 0 ? <span className="badge badge-warn badge-small">{plural(file.findings.length, 'secret')}</span> : null}
      </span>
      {file.status === 'skipped' && file.reason ? <span className="import-reason muted small">{file.reason}</span> : null}
    </li>
  );
}

/** Up to this many projects start open; with more, each is one click away (thousands of rows would slow every choice). */
const OPEN_BY_DEFAULT_MAX = 8;

interface ProjectFilesProps {
  project: PlanProject;
  startOpen: boolean;
  choices: ImportChoices;
  selected: string | null;
  onSelect: (id: string) => void;
  dispatch: (action: WizardAction) => void;
}

function ProjectFiles({ project, startOpen, choices, selected, onSelect, dispatch }: ProjectFilesProps) {
  const [open, setOpen] = useState(startOpen);
  const included = project.files.filter((file) => fileIncluded(choices, project.key, file)).length;
  const listId = `file-list-${project.key}`;
  return (
    <section
      className="import-project-files"
      aria-labelledby={`files-of-${project.key}`}
      data-testid="project-files"
      data-key={project.key}
    >
      <h3 id={`files-of-${project.key}`} className="page-section-title">
        <button type="button" className="card-toggle" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
          <span className={open ? 'chevron chevron-open' : 'chevron'} aria-hidden="true" />
          <code>{project.key}</code>
        </button>{' '}
        <span className="muted">
          {included} of {plural(project.files.length, 'file')} included
        </span>
      </h3>
      {open ? (
        <ul className="import-file-list" id={listId}>
          {project.files.map((file) => (
            <FileRow
              key={file.relPath}
              project={project.key}
              file={file}
              included={fileIncluded(choices, project.key, file)}
              selected={selected === fileId(project.key, file.relPath)}
              onSelect={() => onSelect(fileId(project.key, file.relPath))}
              dispatch={dispatch}
            />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function FilesStep({ plan, input, choices, dispatch }: FilesStepProps) {
  const projects = plan.projects.filter((project) => project.included);
  const [picked, setPicked] = useState<string | null>(null);
  const all = projects.flatMap((project) =>
    project.files.map((file) => ({ project: project.key, file, id: fileId(project.key, file.relPath) })),
  );
  const shown = all.find((entry) => entry.id === picked) ?? all[0];
  return (
    <div className="import-step import-files-layout" data-testid="step-files">
      <div className="import-files-list">
        {projects.map((project) => (
          <ProjectFiles
            key={project.key}
            project={project}
            startOpen={projects.length <= OPEN_BY_DEFAULT_MAX}
            choices={choices}
            selected={shown?.id ?? null}
            onSelect={setPicked}
            dispatch={dispatch}
          />
        ))}
        <SkippedList skipped={plan.skipped} title="Not importable" />
      </div>
      {shown ? (
        <FilePreview project={shown.project} file={shown.file} input={input} textsOmitted={plan.textsOmitted} />
      ) : (
        <p className="muted">No file to preview.</p>
      )}
    </div>
  );
}

export function filesBlocked(plan: ImportPlan): string | null {
  const included = plan.projects.filter((p) => p.included).flatMap((p) => p.files.filter((f) => f.included));
  return included.length === 0 ? 'Include at least one file.' : null;
}
