// The Doctor view: every finding on the home's memory, filtered by kind and root, each fix one click from a proposal.
import { useId, useMemo, useState, type FormEvent } from 'react';
import type { DoctorOptions, DoctorReport, Finding, FindingKind } from '../../../shared/doctor';
import { findingKinds } from '../../../shared/doctor';
import type { MemoryVersion } from '../../../shared/domain';
import { toStudioError } from '../api/studio-request-error';
import { ChoosePathButton } from '../common/choose-path-button';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { useDelayedFlag } from '../hooks/use-delayed-flag';
import { plural } from '../lib/format';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { FindingCard, ShowMore, findingKindLabels, type FindingContext } from './finding-card';
import { StaleGroups } from './stale-groups';
import type { OpenFile } from './finding-evidence';

export interface DoctorPageProps {
  active: boolean;
  versions: readonly MemoryVersion[];
  onOpen: OpenFile;
  onOpenProposal: (id: string) => void;
}

/** Findings shown at first per list; hundreds of stale entries stay one click away. */
const SHOWN = 60;

type KindFilter = FindingKind | 'all';

function Segments<T extends string>({
  label,
  items,
  value,
  onChange,
  testId,
}: {
  label: string;
  items: readonly { value: T; text: string }[];
  value: T;
  onChange: (v: T) => void;
  testId: string;
}) {
  const name = useId();
  return (
    <fieldset className="segmented" data-testid={testId}>
      <legend className="sr-only">{label}</legend>
      {items.map((item) => (
        <label key={item.value} className={item.value === value ? 'segment is-checked' : 'segment'}>
          <input
            type="radio"
            name={name}
            value={item.value}
            checked={item.value === value}
            data-value={item.value}
            onChange={() => onChange(item.value)}
          />
          {item.text}
        </label>
      ))}
    </fieldset>
  );
}

function ProjectsForm({ projects, onChange }: { projects: readonly string[]; onChange: (next: string[]) => void }) {
  const [text, setText] = useState('');
  const id = useId();
  const add = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (value !== '' && !projects.includes(value)) onChange([...projects, value]);
    setText('');
  };
  return (
    <form className="doctor-projects" onSubmit={add}>
      <label htmlFor={id} className="small">
        Also check the AGENTS.md of
      </label>
      <input
        id={id}
        value={text}
        placeholder="/absolute/path/to/project"
        data-testid="doctor-project-input"
        onChange={(e) => setText(e.currentTarget.value)}
      />
      <button type="submit" className="button button-small" disabled={text.trim() === ''}>
        Add
      </button>
      <ChoosePathButton
        purpose="project"
        label="Choose a project folder"
        onChosen={(path) => (projects.includes(path) ? undefined : onChange([...projects, path]))}
      />
      {projects.map((p) => (
        <span key={p} className="badge doctor-chip">
          {p}{' '}
          <button
            type="button"
            className="link-button"
            aria-label={`Stop checking ${p}`}
            onClick={() => onChange(projects.filter((x) => x !== p))}
          >
            ×
          </button>
        </span>
      ))}
    </form>
  );
}

function FindingList({
  findings,
  report,
  options,
  modelReady,
  onOpen,
  onOpenProposal,
}: { findings: readonly Finding[]; report: DoctorReport; options: DoctorOptions; modelReady: boolean } & Pick<
  DoctorPageProps,
  'onOpen' | 'onOpenProposal'
>) {
  const [limit, setLimit] = useState(SHOWN);
  const entries = useMemo(() => new Map(report.entries.map((e) => [e.id, e])), [report]);
  const projects = useMemo(() => report.projects.filter((p) => p.exists && p.from !== 'global'), [report]);
  const byId = useMemo(() => new Map(report.findings.map((f) => [f.id, f])), [report]);
  // Stale findings are shown by group (reason and project), each one expandable to its findings.
  const groups = useMemo(() => report.staleGroups ?? [], [report]);
  const grouped = useMemo(() => new Set(groups.flatMap((g) => g.findingIds)), [groups]);
  const shown = findings.filter((f) => !grouped.has(f.id));
  const showGroups = findings.some((f) => grouped.has(f.id));
  const context: FindingContext = { entries, projects, options, modelReady, onOpen, onOpenProposal };
  return (
    <>
      <ul className="doctor-findings" data-testid="doctor-findings">
        {shown.slice(0, limit).map((f) => (
          <FindingCard key={f.id} finding={f} {...context} />
        ))}
      </ul>
      <ShowMore limit={limit} total={shown.length} onMore={setLimit} />
      {showGroups ? <StaleGroups groups={groups} findings={byId} {...context} /> : null}
    </>
  );
}

function Summary({ report }: { report: DoctorReport }) {
  const roots = report.roots.map((r) => `${r.version}: ${plural(r.entries, 'entry', 'entries')}`).join(' · ');
  const withRules = report.projects.filter((p) => p.ruleFiles.length > 0).length;
  return (
    <p className="page-note muted" data-testid="doctor-summary">
      {roots} · {plural(report.projects.length, 'project folder')} checked, {withRules} with AGENTS.md or CLAUDE.md · “never cited” means{' '}
      {report.staleDays} days · checked in {(report.elapsedMs / 1000).toFixed(1)} s
    </p>
  );
}

interface DoctorHeaderProps {
  version: MemoryVersion | 'all';
  onVersion: (version: MemoryVersion | 'all') => void;
  kind: KindFilter;
  onKind: (kind: KindFilter) => void;
  versions: readonly MemoryVersion[];
  report: DoctorReport | undefined;
  checking: boolean;
  onRefresh: () => void;
}

/** The doctor's filters (root, kind of finding, with counts) and "Check again". */
function DoctorHeader({ version, onVersion, kind, onKind, versions, report, checking, onRefresh }: DoctorHeaderProps) {
  return (
    <header className="page-header">
      <h1 id="doctor-title">Doctor</h1>
      <Segments
        label="Memory root"
        testId="doctor-version"
        value={version}
        onChange={onVersion}
        items={[{ value: 'all', text: 'All roots' }, ...versions.map((v) => ({ value: v, text: v }))]}
      />
      <Segments
        label="Kind of finding"
        testId="doctor-kind"
        value={kind}
        onChange={onKind}
        items={[
          { value: 'all', text: `All ${report ? report.findings.length : ''}` },
          ...findingKinds.map((k) => ({ value: k, text: `${findingKindLabels[k]} ${report?.counts[k] ?? ''}` })),
        ]}
      />
      <button type="button" className="button button-small" data-testid="doctor-refresh" disabled={checking || !report} onClick={onRefresh}>
        {checking && report ? 'Checking…' : 'Check again'}
      </button>
    </header>
  );
}

export function DoctorPage({ active, versions, onOpen, onOpenProposal }: DoctorPageProps) {
  const [version, setVersion] = useState<MemoryVersion | 'all'>('all');
  const [kind, setKind] = useState<KindFilter>('all');
  const [projects, setProjects] = useState<string[]>([]);
  const options = useMemo<DoctorOptions>(
    () => ({ ...(version === 'all' ? {} : { version }), ...(projects.length > 0 ? { projects } : {}) }),
    [version, projects],
  );
  const query = useStudioQuery('doctor.run', active && versions.length > 0 ? options : skipToken);
  const settings = useStudioQuery('consolidate.settings', {});
  const modelReady = (settings.data?.apiKey.source ?? 'none') !== 'none';
  const report = query.data;
  const loading = useDelayedFlag(!report && !query.error);
  const findings = report ? report.findings.filter((f) => kind === 'all' || f.kind === kind) : [];
  return (
    <section
      className="page doctor-page"
      aria-labelledby="doctor-title"
      data-testid="doctor-page"
      data-state={report ? (query.isFetching ? 'refreshing' : 'ready') : 'loading'}
    >
      <DoctorHeader
        version={version}
        onVersion={setVersion}
        kind={kind}
        onKind={setKind}
        versions={versions}
        report={report}
        checking={query.isFetching}
        onRefresh={() => void query.refetch()}
      />
      <ProjectsForm projects={projects} onChange={setProjects} />
      {report ? <Summary report={report} /> : null}
      <div className="page-scroll">
        {versions.length === 0 ? <p className="muted">This home has no memory folder to check yet.</p> : null}
        {query.error ? (
          <ErrorPanel
            title="The doctor could not check this home"
            error={toStudioError(query.error)}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : null}
        {loading ? <LoadingState label="Checking every entry for duplicates, AGENTS.md overlaps, staleness and the budget…" /> : null}
        {report && report.findings.length === 0 ? (
          <p className="muted" data-testid="doctor-healthy">
            Nothing to fix: no duplicates, nothing that repeats an AGENTS.md, nothing stale, and the summary fits Codex&rsquo;s budget.
          </p>
        ) : null}
        {report && report.findings.length > 0 && findings.length === 0 ? (
          <p className="muted">No {findingKindLabels[kind as FindingKind]} findings.</p>
        ) : null}
        {report ? (
          <FindingList
            key={`${kind}:${version}`}
            findings={findings}
            report={report}
            options={options}
            modelReady={modelReady}
            onOpen={onOpen}
            onOpenProposal={onOpenProposal}
          />
        ) : null}
        {report?.notes.map((note) => (
          <p key={note} className="muted small">
            {note}
          </p>
        ))}
      </div>
    </section>
  );
}
