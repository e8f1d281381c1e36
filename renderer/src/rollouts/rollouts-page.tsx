// The Rollouts page: every rollout summary of a root in a sortable, filterable, windowed table; Enter opens one.
import { useDeferredValue, useMemo } from 'react';
import type { MemoryVersion } from '../../../shared/domain';
import type { RolloutRow, RolloutTable as RolloutTableData } from '../../../shared/inspect';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { VersionPicker } from '../common/version-picker';
import { useDelayedFlag } from '../hooks/use-delayed-flag';
import { filterRows, sortRows, type SortState } from './rollout-rows';
import { RolloutTable, type RolloutTableProps } from './rollout-table';

/** What the person set on the page; kept by the app so it survives opening a summary and coming back. */
export interface RolloutsViewState {
  sort: SortState;
  filter: string;
  neverCitedOnly: boolean;
}

export const initialRolloutsView: RolloutsViewState = { sort: { key: 'date', direction: 'desc' }, filter: '', neverCitedOnly: false };

export interface RolloutsPageProps {
  viewState: RolloutsViewState;
  onViewState: (update: (state: RolloutsViewState) => RolloutsViewState) => void;
  versions: readonly MemoryVersion[];
  version: MemoryVersion;
  onVersion: (version: MemoryVersion) => void;
  onOpen: (version: MemoryVersion, path: string) => void;
}

function useNeverCitedFilter(version: MemoryVersion, on: boolean) {
  const query = useStudioQuery('provenance.neverCited', version && on ? { version } : skipToken);
  const paths = useMemo(() => (query.data ? new Set(query.data.files.map((file) => file.path)) : null), [query.data]);
  return { query, paths: on ? paths : null };
}

function countText(shown: number, total: number): string {
  const noun = total === 1 ? 'rollout summary' : 'rollout summaries';
  return shown === total ? `${total.toLocaleString()} ${noun}` : `${shown.toLocaleString()} of ${total.toLocaleString()} ${noun}`;
}

interface ToolbarProps extends Pick<RolloutsPageProps, 'versions' | 'version' | 'onVersion'> {
  filter: string;
  onFilter: (text: string) => void;
  neverCitedOnly: boolean;
  onNeverCitedOnly: (on: boolean) => void;
  count: string;
  shown: number;
  total: number;
}

function Toolbar({ versions, version, onVersion, filter, onFilter, neverCitedOnly, onNeverCitedOnly, count, shown, total }: ToolbarProps) {
  return (
    <header className="page-header">
      <h1 id="rollouts-title">Rollout summaries</h1>
      <VersionPicker versions={versions} value={version} onChange={onVersion} />
      <input
        type="search"
        className="filter-input page-filter"
        placeholder="Filter by project, branch or title"
        aria-label="Filter rollout summaries by project, branch or title"
        value={filter}
        onChange={(event) => onFilter(event.currentTarget.value)}
        data-testid="rollout-filter"
      />
      <label className="toggle">
        <input
          type="checkbox"
          checked={neverCitedOnly}
          onChange={(event) => onNeverCitedOnly(event.currentTarget.checked)}
          data-testid="never-cited-toggle"
        />
        Never cited
      </label>
      <span className="muted page-count" data-testid="rollout-count" data-shown={shown} data-total={total} aria-live="polite">
        {count}
      </span>
    </header>
  );
}

interface BodyProps {
  version: MemoryVersion;
  table: RolloutTableData;
  rows: readonly RolloutRow[];
  filter: string;
  neverCitedOnly: boolean;
  waitingForCitations: boolean;
  /** Everything the table needs besides the rows. */
  grid: Omit<RolloutTableProps, 'rows'>;
}

function Body({ version, table, rows, filter, neverCitedOnly, waitingForCitations, grid }: BodyProps) {
  if (table.rows.length === 0) {
    return (
      <p className="page-empty">The {version} root has no rollout summaries yet: Codex writes one per session after Phase 1 extracts it.</p>
    );
  }
  if (waitingForCitations)
    return (
      <div className="main-message">
        <LoadingState label="Reading which summaries sessions cited…" />
      </div>
    );
  if (rows.length === 0) {
    return (
      <p className="page-empty">
        No rollout summary matches{filter ? ` “${filter}”` : ''}
        {neverCitedOnly ? ' among the never-cited ones' : ''}. Clear the filter to see all {table.rows.length.toLocaleString()}.
      </p>
    );
  }
  return <RolloutTable rows={rows} {...grid} />;
}

export function RolloutsPage({ versions, version, onVersion, onOpen, viewState, onViewState }: RolloutsPageProps) {
  const query = useStudioQuery('inspect.rollouts', version ? { version } : skipToken);
  const { sort, filter, neverCitedOnly } = viewState;
  const setSort = (next: SortState) => onViewState((state) => ({ ...state, sort: next }));
  const setFilter = (next: string) => onViewState((state) => ({ ...state, filter: next }));
  const setNeverCitedOnly = (next: boolean) => onViewState((state) => ({ ...state, neverCitedOnly: next }));
  const deferredFilter = useDeferredValue(filter);
  const neverCited = useNeverCitedFilter(version, neverCitedOnly);
  const table = query.data && query.data.version === version ? query.data : undefined;
  const sorted = useMemo(() => (table ? sortRows(table.rows, sort) : []), [table, sort]);
  const rows = useMemo(() => filterRows(sorted, deferredFilter, neverCited.paths), [sorted, deferredFilter, neverCited.paths]);
  const showLoading = useDelayedFlag(!table && !query.error);
  const count = table ? `${countText(rows.length, table.rows.length)}${query.isFetching ? ' · refreshing…' : ''}` : '';

  return (
    <section className="page rollouts-page" aria-labelledby="rollouts-title" data-testid="rollouts-page">
      <Toolbar
        versions={versions}
        version={version}
        onVersion={onVersion}
        filter={filter}
        onFilter={setFilter}
        neverCitedOnly={neverCitedOnly}
        onNeverCitedOnly={setNeverCitedOnly}
        count={count}
        shown={rows.length}
        total={table?.rows.length ?? 0}
      />
      {table?.notes.map((note) => (
        <p key={note} className="page-note muted">
          {note}
        </p>
      ))}
      {neverCited.query.error ? (
        <ErrorPanel
          compact
          title={`Cannot tell which ${version} summaries were never cited`}
          error={toStudioError(neverCited.query.error)}
          onRetry={() => void neverCited.query.refetch()}
        />
      ) : null}
      {query.error && !table ? (
        <div className="main-message">
          <ErrorPanel
            title={`Cannot list the rollout summaries of ${version}`}
            error={toStudioError(query.error)}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        </div>
      ) : !table ? (
        <div className="main-message">
          {showLoading ? <LoadingState label={`Reading the rollout summaries of ${version} and the sessions that cite them…`} /> : null}
        </div>
      ) : (
        <Body
          version={version}
          table={table}
          rows={rows}
          filter={filter}
          neverCitedOnly={neverCitedOnly}
          waitingForCitations={neverCitedOnly && !neverCited.paths && !neverCited.query.error}
          grid={{
            sort,
            onSort: setSort,
            onOpen: (row) => onOpen(version, row.path),
            resetKey: `${sort.key}:${sort.direction}:${deferredFilter}:${neverCitedOnly}`,
          }}
        />
      )}
    </section>
  );
}
