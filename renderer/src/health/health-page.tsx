// The Health page: what Codex's own SQLite files say about extraction and consolidation, per version, without crashing on a bad DB.
import type { Diagnostic } from '../../../shared/domain';
import type { DbProblem, HealthReport, ThreadStats } from '../../../shared/health';
import { useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { useDelayedFlag } from '../hooks/use-delayed-flag';
import { baseName, formatUnix } from '../lib/format';
import { CodexReleaseCard } from './codex-release';
import { ConfigCard } from './config-card';
import { VersionHealthCard } from './version-health';

export interface HealthPageProps {
  configDiagnostics: readonly Diagnostic[];
  configPath: string | null;
  onOpenSession: (threadId: string) => void;
}

const problemTitles: Record<DbProblem['kind'], (file: string) => string> = {
  missing: (file) => `${file} does not exist`,
  locked: (file) => `${file} is locked by another process`,
  corrupt: (file) => `${file} is damaged`,
  schema: (file) => `${file} has tables Memory Studio does not recognise`,
  unreadable: (file) => `Cannot read ${file}`,
};

function Problems({ problems }: { problems: readonly DbProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <section aria-label="Database problems" className="health-problems">
      {problems.map((problem) => (
        <div
          key={`${problem.db}-${problem.kind}`}
          className="notice notice-warn"
          role="alert"
          data-testid="db-problem"
          data-kind={problem.kind}
          data-db={problem.db}
        >
          <strong>{problemTitles[problem.kind](baseName(problem.path))}</strong>
          <p>{problem.message}</p>
          <p className="muted">{problem.hint}</p>
          <p className="muted small">
            <code className="break">{problem.path}</code>
          </p>
        </div>
      ))}
    </section>
  );
}

function threadRows(threads: ThreadStats): Array<[string, number]> {
  const rows: Array<[string, number]> = [
    ['enabled', threads.byMode.enabled],
    ['disabled (excluded from memory)', threads.byMode.disabled],
    ['polluted (excluded after external context)', threads.byMode.polluted],
  ];
  if (threads.byMode.other > 0) rows.push(['other', threads.byMode.other]);
  rows.push(
    ['archived', threads.archived],
    ["interactive sessions in Phase 1's window now", threads.phase1Window.inWindow],
    ['too old for Phase 1 (max_rollout_age_days)', threads.phase1Window.tooOld],
    ['too recent (min_rollout_idle_hours)', threads.phase1Window.tooRecent],
    ['not interactive (codex exec, sub-agents): never extracted', threads.notInteractive],
    ['total', threads.total],
  );
  return rows;
}

function Threads({ threads }: { threads: ThreadStats | null }) {
  return (
    <section className="card" aria-labelledby="health-threads" data-testid="health-threads">
      <h2 id="health-threads">Threads by memory mode</h2>
      {!threads ? (
        <p className="muted">The thread catalog (state_5.sqlite) could not be read; see the problems above.</p>
      ) : (
        <table className="counts-table">
          <tbody>
            {threadRows(threads).map(([label, value]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td className="num">{value.toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Report({ report, ...props }: HealthPageProps & { report: HealthReport }) {
  return (
    <div className="page-scroll">
      <Problems problems={report.problems} />
      {report.config.featureMemories !== true ? (
        <p className="notice notice-info">
          The memories feature is {report.config.featureMemories === false ? 'off' : 'not set (Codex treats that as off)'} in config.toml:
          Codex neither extracts nor consolidates memories until <code>[features] memories = true</code>.
        </p>
      ) : null}
      <div className="health-grid">
        {report.versions.map((health) => (
          <VersionHealthCard
            key={health.version}
            health={health}
            now={report.now}
            onOpenSession={props.onOpenSession}
            versionSource={report.config.memories.versionSource}
          />
        ))}
        <Threads threads={report.threads} />
        <CodexReleaseCard release={report.codex} />
        <ConfigCard config={report.config} diagnostics={props.configDiagnostics} configPath={props.configPath} />
      </div>
    </div>
  );
}

export function HealthPage(props: HealthPageProps) {
  const query = useStudioQuery('inspect.health', {});
  const report = query.data;
  const showLoading = useDelayedFlag(!report && !query.error);
  return (
    <section className="page health-page" aria-labelledby="health-title" data-testid="health-page">
      <header className="page-header">
        <h1 id="health-title">Pipeline health</h1>
        {report ? (
          <span className="muted">
            as of {formatUnix(report.now)} · read in {Math.round(report.elapsedMs)} ms
          </span>
        ) : null}
        <button type="button" className="button button-small" onClick={() => void query.refetch()} disabled={query.isFetching}>
          {query.isFetching ? 'Reading…' : 'Refresh'}
        </button>
      </header>
      {query.error && !report ? (
        <div className="main-message">
          <ErrorPanel
            title="Cannot read Codex's pipeline state"
            error={toStudioError(query.error)}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        </div>
      ) : report ? (
        <Report report={report} {...props} />
      ) : (
        <div className="main-message">{showLoading ? <LoadingState label="Reading Codex's SQLite files…" /> : null}</div>
      )}
    </section>
  );
}
