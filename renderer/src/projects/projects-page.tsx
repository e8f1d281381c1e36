// The Projects page: what each memory applies to, entries filed under the wrong project, and global memory.
import { useState } from 'react';
import type { MemoryVersion } from '../../../shared/domain';
import type { Project, ProjectEntry, ProjectLens } from '../../../shared/inspect';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { VersionPicker } from '../common/version-picker';
import { useDelayedFlag } from '../hooks/use-delayed-flag';
import { plural } from '../lib/format';
import type { LineSpan } from '../navigation/location';
import { EntryRow } from './entry-row';

export interface ProjectsPageProps {
  versions: readonly MemoryVersion[];
  version: MemoryVersion;
  onVersion: (version: MemoryVersion) => void;
  onOpen: (version: MemoryVersion, path: string, span?: LineSpan) => void;
}

/** Projects with few entries start open; thousands of rollout summaries stay one click away. */
const OPEN_BY_DEFAULT_MAX = 15;
const ENTRY_CAP = 100;

function EntryList({ entries, onOpen }: { entries: readonly ProjectEntry[]; onOpen: (entry: ProjectEntry) => void }) {
  const [showAll, setShowAll] = useState(false);
  const shown = showAll ? entries : entries.slice(0, ENTRY_CAP);
  return (
    <>
      <ul className="entry-list">
        {shown.map((entry, index) => (
          <EntryRow key={`${entry.path}:${entry.line}:${index}`} entry={entry} onOpen={onOpen} />
        ))}
      </ul>
      {shown.length < entries.length ? (
        <button type="button" className="button button-small" onClick={() => setShowAll(true)}>
          Show all {entries.length.toLocaleString()} entries
        </button>
      ) : null}
    </>
  );
}

function ProjectCard({ project, onOpen }: { project: Project; onOpen: (entry: ProjectEntry) => void }) {
  const [open, setOpen] = useState(project.entries.length <= OPEN_BY_DEFAULT_MAX);
  const bodyId = `project-${project.key.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  return (
    <section className="card project-card" data-testid="project-card" data-project={project.name}>
      <h3>
        <button type="button" className="card-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
          <span className={open ? 'chevron chevron-open' : 'chevron'} aria-hidden="true" />
          <span className="truncate project-name" title={project.cwd ?? project.name}>
            {project.name}
          </span>
          <span className="muted card-count">{plural(project.entries.length, 'entry', 'entries')}</span>
        </button>
      </h3>
      {project.cwd ? (
        <p className="card-sub muted">
          <code>{project.cwd}</code>
        </p>
      ) : null}
      {open ? (
        <div id={bodyId}>
          <EntryList entries={project.entries} onOpen={onOpen} />
        </div>
      ) : null}
    </section>
  );
}

function Misfiled({ lens, onOpen }: { lens: ProjectLens; onOpen: (entry: ProjectEntry) => void }) {
  return (
    <section
      className={lens.misfiled.length > 0 ? 'card card-warn' : 'card'}
      aria-labelledby="misfiled-title"
      data-testid="misfiled-section"
    >
      <h2 id="misfiled-title">
        Misfiled <span className="muted">{plural(lens.misfiled.length, 'entry', 'entries')}</span>
      </h2>
      {lens.misfiled.length === 0 ? (
        <p className="muted">Nothing misfiled: every entry filed under a project points at that project&rsquo;s own sessions.</p>
      ) : (
        <>
          <p className="muted">
            Filed under one project, but the sessions they came from ran in another: Codex may apply them in the wrong place.
          </p>
          <ul className="entry-list">
            {lens.misfiled.map((entry, index) => (
              <EntryRow key={`${entry.path}:${entry.line}:${index}`} entry={entry} onOpen={onOpen} testId="misfiled-entry">
                <span className="entry-misfiled" title={`Filed under ${entry.filedUnder}; applies to ${entry.appliesTo}`}>
                  {entry.message}
                </span>
              </EntryRow>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function LensBody({ lens, onOpen }: { lens: ProjectLens; onOpen: (entry: ProjectEntry) => void }) {
  return (
    <div className="page-scroll">
      <Misfiled lens={lens} onOpen={onOpen} />
      <h2 className="page-section-title">
        Projects <span className="muted">{lens.projects.length}</span>
      </h2>
      {lens.projects.length === 0 ? <p className="muted">No entry in the {lens.version} root names a project (a cwd or a scope).</p> : null}
      {lens.projects.map((project) => (
        <ProjectCard key={project.key} project={project} onOpen={onOpen} />
      ))}
      <section className="card" aria-labelledby="unscoped-title" data-testid="unscoped-section">
        <h2 id="unscoped-title">
          Global (unscoped) <span className="muted">{plural(lens.unscoped.length, 'entry', 'entries')}</span>
        </h2>
        {lens.unscoped.length === 0 ? (
          <p className="muted">Every entry is tied to a project; nothing applies everywhere.</p>
        ) : (
          <>
            <p className="muted">Applied in every project: check that none of it belongs to just one.</p>
            <EntryList entries={lens.unscoped} onOpen={onOpen} />
          </>
        )}
      </section>
    </div>
  );
}

export function ProjectsPage({ versions, version, onVersion, onOpen }: ProjectsPageProps) {
  const query = useStudioQuery('inspect.projects', version ? { version } : skipToken);
  const lens = query.data && query.data.version === version ? query.data : undefined;
  const showLoading = useDelayedFlag(!lens && !query.error);
  const openEntry = (entry: ProjectEntry) => onOpen(version, entry.path, { line: entry.line, endLine: entry.endLine });
  return (
    <section className="page projects-page" aria-labelledby="projects-title" data-testid="projects-page">
      <header className="page-header">
        <h1 id="projects-title">Projects</h1>
        <VersionPicker versions={versions} value={version} onChange={onVersion} />
        {query.isFetching && lens ? <span className="muted">refreshing…</span> : null}
      </header>
      {query.error && !lens ? (
        <div className="main-message">
          <ErrorPanel
            title={`Cannot build the project lens of ${version}`}
            error={toStudioError(query.error)}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        </div>
      ) : lens ? (
        <LensBody lens={lens} onOpen={openEntry} />
      ) : (
        <div className="main-message">{showLoading ? <LoadingState label={`Sorting the ${version} memories by project…`} /> : null}</div>
      )}
    </section>
  );
}
