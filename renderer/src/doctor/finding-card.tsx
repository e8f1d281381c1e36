// One finding: what it is, the text that triggered it, and its fixes (each one a proposal to review) and the model's help.
import { useId, useState } from 'react';
import type { DoctorEntry, DoctorOptions, DoctorProject, Finding, FixOption } from '../../../shared/doctor';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { useStudioMutation } from '../api/studio-query';
import { FindingEvidence, type OpenFile } from './finding-evidence';

export const findingKindLabels: Record<Finding['kind'], string> = {
  duplicate: 'Duplicate',
  'agents-overlap': 'AGENTS.md overlap',
  stale: 'Stale',
  oversize: 'Over budget',
};

/** What every finding's card needs besides the finding: the report's entries and projects, and what to do on a click. */
export interface FindingContext {
  entries: ReadonlyMap<string, DoctorEntry>;
  /** Project folders a promotion can go into (those that exist on this machine). */
  projects: readonly DoctorProject[];
  options: DoctorOptions;
  /** Whether the openai engine has a key: the model's help is offered only then. */
  modelReady: boolean;
  onOpen: OpenFile;
  onOpenProposal: (id: string) => void;
}

export interface FindingCardProps extends FindingContext {
  finding: Finding;
}

/** "Show N more of M": a long list grows by 200 at a time. */
export function ShowMore({ limit, total, onMore }: { limit: number; total: number; onMore: (limit: number) => void }) {
  if (total <= limit) return null;
  return (
    <button type="button" className="button" onClick={() => onMore(limit + 200)}>
      Show {Math.min(200, total - limit)} more of {total}
    </button>
  );
}

function ProjectChoice({
  projects,
  value,
  onChange,
}: {
  projects: readonly DoctorProject[];
  value: string;
  onChange: (cwd: string) => void;
}) {
  const id = useId();
  return (
    <label className="small doctor-project" htmlFor={id}>
      into{' '}
      <select id={id} value={value} data-testid="doctor-project" onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">choose a project…</option>
        {projects.map((p) => (
          <option key={p.cwd} value={p.cwd}>
            {p.cwd}
          </option>
        ))}
      </select>
    </label>
  );
}

function FixButton({
  fix,
  primary,
  projects,
  run,
  pending,
}: {
  fix: FixOption;
  primary: boolean;
  projects: readonly DoctorProject[];
  run: (project?: string) => void;
  pending: boolean;
}) {
  const [project, setProject] = useState('');
  const blocked = fix.needsProject && project === '';
  return (
    <span className="doctor-fix">
      <button
        type="button"
        className={primary ? 'button button-primary' : 'button'}
        data-testid="doctor-fix"
        data-fix={fix.id}
        data-action={fix.action}
        title={fix.description}
        disabled={pending || blocked}
        onClick={() => run(fix.needsProject ? project : undefined)}
      >
        {fix.label}
      </button>
      {fix.needsProject ? <ProjectChoice projects={projects} value={project} onChange={setProject} /> : null}
    </span>
  );
}

function ModelHelp({ finding, options, onOpenProposal }: Pick<FindingCardProps, 'finding' | 'options' | 'onOpenProposal'>) {
  const explain = useStudioMutation('doctor.explain');
  const merge = useStudioMutation('doctor.modelMerge');
  const error = explain.error ?? merge.error;
  return (
    <div className="doctor-model">
      <button
        type="button"
        className="button button-small"
        data-testid="doctor-explain"
        disabled={explain.isPending}
        onClick={() => explain.mutate({ ...options, findingId: finding.id })}
      >
        {explain.isPending ? 'Asking the model…' : 'Explain'}
      </button>
      {finding.modelMergeable ? (
        <button
          type="button"
          className="button button-small"
          data-testid="doctor-model-merge"
          disabled={merge.isPending}
          onClick={() => merge.mutate({ ...options, findingId: finding.id }, { onSuccess: (p) => onOpenProposal(p.id) })}
        >
          {merge.isPending ? 'The model is merging…' : 'Merge with the model'}
        </button>
      ) : null}
      {explain.data ? (
        <p className="doctor-explanation" data-testid="doctor-explanation">
          <span className="muted small">{explain.data.model}:</span> {explain.data.text}
        </p>
      ) : null}
      {error ? <ErrorPanel compact title="The model could not help" error={toStudioError(error)} /> : null}
    </div>
  );
}

export function FindingCard({ finding, entries, projects, options, modelReady, onOpen, onOpenProposal }: FindingCardProps) {
  const fix = useStudioMutation('doctor.fix');
  return (
    <li
      className={`card doctor-finding${finding.severity === 'warning' ? ' card-warn' : ''}`}
      data-testid="doctor-finding"
      data-kind={finding.kind}
      data-id={finding.id}
    >
      <h3>
        <span className={`badge badge-small doctor-kind doctor-kind-${finding.kind}`}>{findingKindLabels[finding.kind]}</span>
        <span className="doctor-title">{finding.title}</span>
        <span className="muted small">
          {finding.version} {finding.file}:{finding.line}
        </span>
      </h3>
      <p className="small">{finding.message}</p>
      <FindingEvidence finding={finding} entries={entries} onOpen={onOpen} />
      <div className="doctor-fixes">
        {finding.fixes.map((f, index) => (
          <FixButton
            key={f.id}
            fix={f}
            primary={index === 0}
            projects={projects}
            pending={fix.isPending}
            run={(project) => fix.mutate({ ...options, fixId: f.id, project }, { onSuccess: (p) => onOpenProposal(p.id) })}
          />
        ))}
        {fix.isPending ? (
          <span className="muted small" role="status">
            Making the proposal…
          </span>
        ) : null}
      </div>
      {fix.error ? <ErrorPanel compact title="The fix could not be proposed" error={toStudioError(fix.error)} /> : null}
      {modelReady ? <ModelHelp finding={finding} options={options} onOpenProposal={onOpenProposal} /> : null}
    </li>
  );
}
