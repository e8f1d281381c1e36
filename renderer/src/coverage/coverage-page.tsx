// The Coverage view: every session in Codex's thread catalog and how far the memory pipeline took it (coverage.get).
import { useDeferredValue, useMemo, useRef } from 'react';
import type { CoverageInput, CoverageReport, CoverageThread } from '../../../shared/coverage';
import type { MemoryVersion } from '../../../shared/domain';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { VersionPicker } from '../common/version-picker';
import { useDelayedFlag } from '../hooks/use-delayed-flag';
import { formatUnix, plural } from '../lib/format';
import { AgingOutCallout, ConsolidationCallout, NoStateDb, ProblemList, SummaryBar } from './coverage-callouts';
import { CoverageDetail } from './coverage-detail';
import { filterThreads, initialSort, sinceChoices, sortThreads, type CoverageSort, type StageFilter } from './coverage-model';
import { CoverageTable } from './coverage-table';

/** What the person set on the view; kept by the app so it survives opening a file and coming back. */
export interface CoverageViewState {
  /** null: the version Codex reads (the report says which it used). */
  version: MemoryVersion | null;
  sinceDays: number | null;
  filter: StageFilter;
  text: string;
  sort: CoverageSort;
  selectedId: string | null;
}

export const initialCoverageView: CoverageViewState = {
  version: null,
  sinceDays: null,
  filter: null,
  text: '',
  sort: initialSort,
  selectedId: null,
};

export interface CoveragePageProps {
  active: boolean;
  viewState: CoverageViewState;
  onViewState: (update: (state: CoverageViewState) => CoverageViewState) => void;
  onOpenFile: (version: MemoryVersion, path: string) => void;
  onOpenSession: (threadId: string) => void;
  onOpenProposal: (id: string) => void;
}

const versions: readonly MemoryVersion[] = ['v1', 'v2'];

function coverageInput({ version, sinceDays }: CoverageViewState): CoverageInput {
  return { ...(version ? { version } : {}), ...(sinceDays ? { sinceDays } : {}) };
}

function SinceFilter({ value, onChange }: { value: number | null; onChange: (days: number | null) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Sessions active in the last" data-testid="coverage-since">
      {sinceChoices.map((choice) => (
        <button
          key={choice.label}
          type="button"
          className={choice.days === value ? 'segment is-checked' : 'segment'}
          aria-pressed={choice.days === value}
          data-days={choice.days ?? 'all'}
          onClick={() => onChange(choice.days)}
        >
          {choice.label}
        </button>
      ))}
    </div>
  );
}

function WindowLine({ report }: { report: CoverageReport }) {
  const { window } = report;
  return (
    <p className="coverage-window muted small" data-testid="coverage-window">
      Judged as of {formatUnix(report.generatedAt)} with <code>max_rollout_age_days = {window.maxRolloutAgeDays}</code>,{' '}
      <code>min_rollout_idle_hours = {window.minRolloutIdleHours}</code>,{' '}
      <code>max_rollouts_per_startup = {window.maxRolloutsPerStartup}</code>
      {report.sinceDays ? ` · sessions active in the last ${report.sinceDays} days` : ''}.
    </p>
  );
}

interface SessionListProps {
  report: CoverageReport;
  rows: readonly CoverageThread[];
  viewState: CoverageViewState;
  set: (patch: Partial<CoverageViewState>) => void;
  resetKey: string;
  onOpen: (threadId: string) => void;
}

/** The text filter, the count, and the table, or why it is empty. */
function SessionList({ report, rows, viewState, set, resetKey, onOpen }: SessionListProps) {
  const { filter, text, sort, selectedId } = viewState;
  const total = report.threads.length;
  return (
    <div className="coverage-list">
      <div className="coverage-toolbar">
        <input
          type="search"
          className="filter-input page-filter"
          placeholder="Filter by id, directory, title or error"
          aria-label="Filter sessions by id, directory, title or error"
          value={text}
          onChange={(event) => set({ text: event.currentTarget.value })}
          data-testid="coverage-filter"
        />
        <span className="muted page-count" data-testid="coverage-count" data-shown={rows.length} aria-live="polite">
          {rows.length === total ? plural(total, 'session') : `${rows.length.toLocaleString()} of ${plural(total, 'session')}`}
        </span>
      </div>
      {total === 0 ? (
        <p className="page-empty" data-testid="coverage-empty">
          {report.problems.some((problem) => problem.db === 'state')
            ? 'Codex’s thread catalog could not be read (the problem is above), so no session is listed.'
            : `Codex’s thread catalog has no session${report.sinceDays ? ` active in the last ${report.sinceDays} days` : ''}.`}
        </p>
      ) : rows.length === 0 ? (
        <div className="page-empty" data-testid="coverage-no-match">
          <p>
            No session matches{text.trim() ? ` “${text.trim()}”` : ''}
            {filter ? ' at this stage' : ''}.
          </p>
          <button type="button" className="button button-small" onClick={() => set({ filter: null, text: '' })}>
            Show every session
          </button>
        </div>
      ) : (
        <CoverageTable
          rows={rows}
          selectedId={selectedId}
          onSelect={(id) => set({ selectedId: id })}
          onOpen={onOpen}
          sort={sort}
          onSort={(next) => set({ sort: next })}
          resetKey={resetKey}
        />
      )}
    </div>
  );
}

export interface CoverageReportViewProps extends Omit<CoveragePageProps, 'active'> {
  report: CoverageReport;
}

export function CoverageReportView({ report, viewState, onViewState, onOpenFile, onOpenSession, onOpenProposal }: CoverageReportViewProps) {
  const detailRef = useRef<HTMLElement>(null);
  const { filter, text, sort, selectedId } = viewState;
  const set = (patch: Partial<CoverageViewState>) => onViewState((state) => ({ ...state, ...patch }));
  const deferredText = useDeferredValue(text);
  const sorted = useMemo(() => sortThreads(report.threads, sort), [report.threads, sort]);
  const rows = useMemo(() => filterThreads(sorted, filter, deferredText), [sorted, filter, deferredText]);
  const byId = useMemo(() => new Map(report.threads.map((thread) => [thread.threadId, thread])), [report.threads]);
  const agingOut = useMemo(() => report.agingOut.flatMap((id) => byId.get(id) ?? []), [report.agingOut, byId]);
  const selected = selectedId === null ? null : (byId.get(selectedId) ?? null);
  const home = useStudioQuery('home.get', {}).data;
  const stateDb = report.problems.find((problem) => problem.db === 'state' && problem.kind === 'missing');
  if (stateDb) return <NoStateDb path={stateDb.path} memoriesOn={home?.config.featureMemories === true} />;
  // A session picked outside the table (aging out) is shown in it even when the filters hid it.
  const pick = (id: string) =>
    set(rows.some((row) => row.threadId === id) ? { selectedId: id } : { selectedId: id, filter: null, text: '' });
  return (
    <div className="coverage-body">
      <WindowLine report={report} />
      <ProblemList problems={report.problems} />
      <SummaryBar report={report} filter={filter} onFilter={(next) => set({ filter: next })} />
      <div className="coverage-callouts">
        <ConsolidationCallout report={report} onOpenProposal={onOpenProposal} />
        <AgingOutCallout threads={agingOut} now={report.generatedAt} onPick={pick} />
      </div>
      <div className="coverage-split">
        <SessionList
          report={report}
          rows={rows}
          viewState={viewState}
          set={set}
          resetKey={`${sort.key}:${sort.direction}:${filter?.stage ?? ''}:${filter?.reason ?? ''}:${deferredText}`}
          onOpen={(id) => {
            set({ selectedId: id });
            detailRef.current?.focus();
          }}
        />
        <CoverageDetail
          ref={detailRef}
          thread={selected}
          report={report}
          onOpenFile={onOpenFile}
          onOpenSession={onOpenSession}
          onOpenProposal={onOpenProposal}
        />
      </div>
    </div>
  );
}

export function CoveragePage({ active, ...props }: CoveragePageProps) {
  const { viewState, onViewState } = props;
  const query = useStudioQuery('coverage.get', active ? coverageInput(viewState) : skipToken);
  const report = query.data;
  const showLoading = useDelayedFlag(!report && !query.error);
  const set = (patch: Partial<CoverageViewState>) => onViewState((state) => ({ ...state, ...patch }));
  return (
    <section
      className="page coverage-page"
      aria-labelledby="coverage-title"
      data-testid="coverage-page"
      data-state={report ? 'ready' : query.error ? 'error' : 'loading'}
      aria-busy={query.isFetching}
    >
      <header className="page-header">
        <h1 id="coverage-title">Coverage</h1>
        <VersionPicker versions={versions} value={viewState.version ?? report?.version ?? 'v2'} onChange={(version) => set({ version })} />
        <SinceFilter value={viewState.sinceDays} onChange={(sinceDays) => set({ sinceDays })} />
        <button type="button" className="button button-small" onClick={() => void query.refetch()} disabled={query.isFetching}>
          {query.isFetching ? 'Reading…' : 'Refresh'}
        </button>
      </header>
      {query.error && report ? (
        <ErrorPanel
          compact
          title="Could not read the pipeline again: this is the last ledger read"
          error={toStudioError(query.error)}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : null}
      {query.error && !report ? (
        <div className="main-message">
          <ErrorPanel
            title="Cannot read Codex's memory pipeline"
            error={toStudioError(query.error)}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        </div>
      ) : report ? (
        <CoverageReportView report={report} {...props} />
      ) : (
        <div className="main-message">
          {showLoading ? <LoadingState label="Following every session through Codex's memory pipeline…" /> : null}
        </div>
      )}
    </section>
  );
}
