// Around the Coverage table: the summary bar (chips that filter), the consolidation job, sessions about to age out, DB problems.
import type { CoverageConsolidation, CoverageReport, CoverageThread } from '../../../shared/coverage';
import type { DbProblem } from '../../../shared/health';
import { TimeText } from '../health/time-fact';
import { baseName, shortId } from '../lib/format';
import { reasonHelp, reasonLabels, reasons, sameFilter, stageHelp, stageLabels, stages, totalOf, type StageFilter } from './coverage-model';
import { ReclaimButton } from './coverage-repairs';

interface ChipProps {
  label: string;
  count: number;
  title: string;
  pressed: boolean;
  tone?: string;
  onClick: () => void;
  testId: string;
  data?: Record<string, string>;
}

function Chip({ label, count, title, pressed, tone, onClick, testId, data }: ChipProps) {
  const dataAttributes = Object.fromEntries(Object.entries(data ?? {}).map(([key, value]) => [`data-${key}`, value]));
  return (
    <button
      type="button"
      className={`coverage-chip${tone ? ` ${tone}` : ''}`}
      aria-pressed={pressed}
      title={title}
      onClick={onClick}
      data-testid={testId}
      {...dataAttributes}
    >
      <span className="coverage-chip-label">{label}</span> <strong className="coverage-chip-count">{count.toLocaleString()}</strong>
    </button>
  );
}

const chipTone: Partial<Record<string, string>> = { failed: 'coverage-chip-warn', exhausted: 'coverage-chip-danger' };

/** Totals per stage as filter chips (a second click shows every session again), and the not-eligible ones by reason. */
export function SummaryBar({
  report,
  filter,
  onFilter,
}: {
  report: CoverageReport;
  filter: StageFilter;
  onFilter: (f: StageFilter) => void;
}) {
  const toggle = (next: StageFilter) => onFilter(sameFilter(filter, next) ? null : next);
  const shownReasons = reasons.filter((reason) => report.notEligible[reason] > 0);
  return (
    <div className="coverage-summary" data-testid="coverage-summary">
      <div className="coverage-chips" role="group" aria-label="Sessions by stage (filter)">
        <Chip
          label="All"
          count={totalOf(report.totals)}
          title="Every session"
          pressed={filter === null}
          onClick={() => onFilter(null)}
          testId="stage-chip"
          data={{ stage: 'all' }}
        />
        {stages.map((stage) => (
          <Chip
            key={stage}
            label={stageLabels[stage]}
            count={report.totals[stage]}
            title={stageHelp[stage]}
            pressed={filter?.stage === stage && filter.reason === null}
            tone={report.totals[stage] > 0 ? chipTone[stage] : undefined}
            onClick={() => toggle({ stage, reason: null })}
            testId="stage-chip"
            data={{ stage }}
          />
        ))}
      </div>
      {shownReasons.length > 0 ? (
        <div className="coverage-chips coverage-reasons" role="group" aria-label="Not eligible, by reason (filter)">
          <span className="muted small">Not eligible because:</span>
          {shownReasons.map((reason) => (
            <Chip
              key={reason}
              label={reasonLabels[reason]}
              count={report.notEligible[reason]}
              title={reasonHelp[reason]}
              pressed={filter?.stage === 'not-eligible' && filter.reason === reason}
              onClick={() => toggle({ stage: 'not-eligible', reason })}
              testId="reason-chip"
              data={{ reason }}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}

const consolidationLabels: Record<CoverageConsolidation['state'], string> = {
  absent: 'never ran',
  claimable: 'claimable',
  running: 'running',
  'running-dead': 'stuck: its worker is gone',
  backoff: 'waiting to retry',
  cooldown: 'cooling down',
  done: 'done',
};

/** The global Phase 2 job: its state in words, warned about when stuck, with the reclaim repair when one applies. */
export function ConsolidationCallout({ report, onOpenProposal }: { report: CoverageReport; onOpenProposal: (id: string) => void }) {
  const job = report.consolidation;
  const now = report.generatedAt;
  const stuck = job.state === 'running-dead' || job.state === 'backoff' || job.reclaimable;
  return (
    <section
      className={`notice coverage-callout ${stuck ? 'notice-warn' : 'notice-info'}`}
      aria-labelledby="coverage-consolidation"
      data-testid="coverage-consolidation"
      data-state={job.state}
    >
      <h2 id="coverage-consolidation">
        Consolidation (Phase 2): <span className={stuck ? 'text-warn' : undefined}>{consolidationLabels[job.state]}</span>
        {job.status ? <span className="badge badge-small coverage-inline-badge">{job.status}</span> : null}
      </h2>
      <p>{job.detail}</p>
      <p className="muted small">
        {job.leaseUntil ? (
          <>
            Lease until <TimeText time={job.leaseUntil} now={now} />.{' '}
          </>
        ) : null}
        {job.retryAt ? (
          <>
            Retry at <TimeText time={job.retryAt} now={now} />.{' '}
          </>
        ) : null}
        {job.finishedAt ? (
          <>
            Last finished <TimeText time={job.finishedAt} now={now} />.
          </>
        ) : null}
      </p>
      {job.lastError ? <pre className="coverage-error">{job.lastError}</pre> : null}
      {job.reclaimable ? <ReclaimButton version={report.version} onOpenProposal={onOpenProposal} /> : null}
    </section>
  );
}

/** Waiting or failed sessions whose window closes within seven days, soonest first; a click shows one in the table. */
export function AgingOutCallout({
  threads,
  now,
  onPick,
}: {
  threads: readonly CoverageThread[];
  now: CoverageReport['generatedAt'];
  onPick: (id: string) => void;
}) {
  if (threads.length === 0) return null;
  return (
    <section className="notice notice-warn coverage-callout" aria-labelledby="coverage-aging" data-testid="coverage-aging-out">
      <h2 id="coverage-aging">
        Aging out within 7 days <span className="muted">{threads.length.toLocaleString()}</span>
      </h2>
      <p className="small">Codex stops considering these sessions for extraction once their window closes.</p>
      <ul className="plain-list coverage-aging-list">
        {threads.map((thread) => (
          <li key={thread.threadId} data-testid="aging-out-item" data-thread-id={thread.threadId}>
            <button type="button" className="link-button" title={thread.threadId} onClick={() => onPick(thread.threadId)}>
              {shortId(thread.threadId)}
            </button>{' '}
            <span className="muted coverage-ellipsis" title={thread.cwd ?? undefined}>
              {thread.cwd ? baseName(thread.cwd) : 'no directory'}
            </span>{' '}
            · {stageLabels[thread.stage].toLowerCase()} · ages out <TimeText time={thread.agesOutAt} now={now} fallback="soon" />
          </li>
        ))}
      </ul>
    </section>
  );
}

const problemTitles: Record<DbProblem['kind'], (file: string) => string> = {
  missing: (file) => `${file} does not exist`,
  locked: (file) => `${file} is locked by another process`,
  corrupt: (file) => `${file} is damaged`,
  schema: (file) => `${file} has tables Memory Studio does not recognise`,
  unreadable: (file) => `Cannot read ${file}`,
};

export function ProblemList({ problems }: { problems: readonly DbProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <div className="coverage-problems" aria-label="Database problems">
      {problems.map((problem) => (
        <div
          key={`${problem.db}-${problem.kind}`}
          className="notice notice-warn"
          role="alert"
          data-testid="coverage-problem"
          data-kind={problem.kind}
          data-db={problem.db}
        >
          <strong>{problemTitles[problem.kind](baseName(problem.path))}</strong>
          <p>{problem.message}</p>
          <p className="muted">{problem.hint}</p>
        </div>
      ))}
    </div>
  );
}

/** Codex's thread catalog is not there: Codex has not started with this home (and this SQLite folder) yet. */
export function NoStateDb({ path, memoriesOn }: { path: string; memoriesOn: boolean }) {
  return (
    <section className="empty-state" aria-labelledby="coverage-no-db" data-testid="coverage-no-state-db">
      <h2 id="coverage-no-db">No Codex thread catalog here yet</h2>
      <p>
        There is no <code className="break">{path}</code>: Codex creates it at its first start with this home (in{' '}
        <code>CODEX_SQLITE_HOME</code> or <code>sqlite_home</code> when one is set), so no session can be followed through the memory
        pipeline yet.
      </p>
      {memoriesOn ? null : (
        <>
          <p>
            Memories are not on: turn them on in Codex&rsquo;s <code>config.toml</code>:
          </p>
          <pre className="coverage-snippet">{'[features]\nmemories = true'}</pre>
        </>
      )}
      <p className="muted">Then run a few Codex sessions; Codex extracts them once they have been idle for a while.</p>
    </section>
  );
}
