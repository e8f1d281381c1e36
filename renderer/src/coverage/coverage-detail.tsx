// One session's coverage: its stage and what happens next, its stage-1 job, its output, where it shows in the memory root.
import type { ReactNode, Ref } from 'react';
import type { CoverageJob, CoverageOutput, CoverageReport, CoverageThread } from '../../../shared/coverage';
import type { MemoryVersion } from '../../../shared/domain';
import type { UnixTime } from '../../../shared/health';
import { Fact } from '../common/fact';
import { TimeText } from '../health/time-fact';
import { plural, shortId } from '../lib/format';
import { reasonHelp, reasonLabels, stageLabels, stageTone } from './coverage-model';
import { RetryButton } from './coverage-repairs';

export interface CoverageDetailProps {
  thread: CoverageThread | null;
  report: CoverageReport;
  onOpenFile: (version: MemoryVersion, path: string) => void;
  onOpenSession: (threadId: string) => void;
  onOpenProposal: (id: string) => void;
  ref?: Ref<HTMLElement>;
}

const retryStateText: Record<NonNullable<CoverageJob['retryState']>, string> = {
  backoff: 'waiting for its retry time',
  due: 'retried at a Codex session start (its place in line: above)',
  exhausted: 'no retries left: Codex gives up on this session',
  'new-input': 'the session changed since: its retries reset to 3 at the next claim',
  'lease-expired': 'the worker vanished; its lease has expired',
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="coverage-detail-section" aria-label={title}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}

function JobFacts({ job, now, neverRetried }: { job: CoverageJob | null; now: UnixTime; neverRetried: boolean }) {
  if (!job) return <p className="muted small">No stage-1 job: Phase 1 never claimed this session.</p>;
  // Phase 1 no longer picks the session up (too old, archived, memory off): the row's retry fields no longer matter.
  const retry =
    neverRetried && job.retryState ? 'Codex will not retry it (the reason above)' : job.retryState ? retryStateText[job.retryState] : null;
  return (
    <>
      <dl className="facts coverage-facts">
        <Fact term="Status">
          <span className={`badge badge-small ${job.status === 'error' ? 'badge-error' : ''}`} data-testid="job-status">
            {job.status}
          </span>
          {retry ? <span className="muted"> · {retry}</span> : null}
        </Fact>
        <Fact term="Retry at">
          {neverRetried ? <span className="muted">never</span> : <TimeText time={job.retryAt} now={now} fallback="not scheduled" />}
        </Fact>
        <Fact term="Retries left">{job.retryRemaining === null ? <span className="muted">unknown</span> : job.retryRemaining}</Fact>
        <Fact term="Lease">
          <TimeText time={job.leaseUntil} now={now} fallback="none" />
        </Fact>
        <Fact term="Finished">
          <TimeText time={job.finishedAt} now={now} fallback="not finished" />
        </Fact>
      </dl>
      {job.lastError ? (
        <>
          <h4 className="coverage-detail-label">Last error</h4>
          <pre className="coverage-error" data-testid="job-error">
            {job.lastError}
          </pre>
        </>
      ) : null}
    </>
  );
}

function OutputFacts({ output, now }: { output: CoverageOutput | null; now: UnixTime }) {
  if (!output)
    return <p className="muted small">No stage-1 output: nothing was extracted, or the extraction succeeded and kept nothing.</p>;
  return (
    <dl className="facts coverage-facts" data-testid="coverage-output">
      <Fact term="Slug">{output.rolloutSlug ? <code>{output.rolloutSlug}</code> : <span className="muted">none</span>}</Fact>
      <Fact term="Generated">
        <TimeText time={output.generatedAt} now={now} fallback="unknown" />
      </Fact>
      <Fact term="Session as of">
        <TimeText time={output.sourceUpdatedAt} now={now} fallback="unknown" />
      </Fact>
      <Fact term="Selected">{output.selectedForPhase2 ? 'yes, in the last consolidation' : 'no'}</Fact>
      <Fact term="Citations">{output.usageCount.toLocaleString()}</Fact>
      <Fact term="Last cited">
        <TimeText time={output.lastUsage} now={now} fallback="never" />
      </Fact>
    </dl>
  );
}

function Presence({
  thread,
  version,
  onOpenFile,
}: {
  thread: CoverageThread;
  version: MemoryVersion;
  onOpenFile: CoverageDetailProps['onOpenFile'];
}) {
  const { rolloutSummary, namedIn } = thread.presence;
  return (
    <ul className="plain-list coverage-presence" data-testid="coverage-presence">
      <li>
        {rolloutSummary ? (
          <button
            type="button"
            className="link-button coverage-ellipsis"
            title={`Open ${version}/${rolloutSummary}`}
            data-testid="open-presence"
            data-path={rolloutSummary}
            onClick={() => onOpenFile(version, rolloutSummary)}
          >
            {rolloutSummary}
          </button>
        ) : (
          <span className="muted">No rollout summary in the {version} root.</span>
        )}
      </li>
      {namedIn.length === 0 ? (
        <li className="muted">No memory file names this session.</li>
      ) : (
        namedIn.map((file) => (
          <li key={file.relPath} className="coverage-presence-file">
            <button
              type="button"
              className="link-button coverage-ellipsis"
              title={`Open ${version}/${file.relPath}`}
              data-testid="open-presence"
              data-path={file.relPath}
              onClick={() => onOpenFile(version, file.relPath)}
            >
              {file.relPath}
            </button>
            <span className="muted"> · {plural(file.lines, 'line')}</span>
          </li>
        ))
      )}
    </ul>
  );
}

function SessionFacts({ thread, now, onOpenSession }: { thread: CoverageThread; now: UnixTime; onOpenSession: (id: string) => void }) {
  return (
    <dl className="facts coverage-facts">
      <Fact term="Thread">
        <code className="break">{thread.threadId}</code>
      </Fact>
      {thread.title ? <Fact term="Title">{thread.title}</Fact> : null}
      <Fact term="Source">
        <span title={thread.source ?? undefined}>{thread.sourceLabel}</span>
        {thread.memoryMode !== 'enabled' ? (
          <span className="badge badge-small coverage-inline-badge">memory {thread.memoryMode}</span>
        ) : null}
      </Fact>
      <Fact term="Directory">{thread.cwd ? <code className="break">{thread.cwd}</code> : <span className="muted">not recorded</span>}</Fact>
      <Fact term="Updated">
        <TimeText time={thread.updatedAt} now={now} fallback="unknown" />
      </Fact>
      {thread.eligibleAt ? (
        <Fact term="Eligible from">
          <TimeText time={thread.eligibleAt} now={now} />
        </Fact>
      ) : null}
      {thread.agesOutAt ? (
        <Fact term="Ages out">
          <TimeText time={thread.agesOutAt} now={now} />
        </Fact>
      ) : null}
      <Fact term="Rollout">
        {thread.rolloutPath ? (
          <button
            type="button"
            className="link-button break"
            title="Open the session view of this thread"
            data-testid="open-session"
            onClick={() => onOpenSession(thread.threadId)}
          >
            {thread.rolloutPath}
          </button>
        ) : (
          <span className="muted">no rollout file recorded</span>
        )}
      </Fact>
    </dl>
  );
}

/** The pane beside the table; it takes the focus when Enter opens a session, so Tab goes through its links next. */
export function CoverageDetail({ thread, report, onOpenFile, onOpenSession, onOpenProposal, ref }: CoverageDetailProps) {
  if (!thread)
    return (
      <aside ref={ref} tabIndex={-1} className="coverage-detail" aria-label="Session details" data-testid="coverage-detail">
        <p className="muted coverage-detail-empty">Pick a session to see its job, its output and where it shows in memory.</p>
      </aside>
    );
  const now = report.generatedAt;
  return (
    <aside
      ref={ref}
      tabIndex={-1}
      className="coverage-detail"
      aria-label={`Session ${thread.threadId}`}
      data-testid="coverage-detail"
      data-thread-id={thread.threadId}
    >
      <header className="coverage-detail-head">
        <h2 title={thread.threadId}>Session {shortId(thread.threadId)}</h2>
        <span className={`badge ${stageTone[thread.stage]}`} data-testid="detail-stage">
          {stageLabels[thread.stage]}
        </span>
        {thread.reason ? (
          <span className="badge badge-small" title={reasonHelp[thread.reason]}>
            {reasonLabels[thread.reason]}
          </span>
        ) : null}
      </header>
      <p className="coverage-detail-sentence" data-testid="detail-sentence">
        {thread.detail}
      </p>
      {thread.repairs.includes('retry') ? (
        // Keyed by session: a proposal pending or failed for one session never shows under the next one.
        <RetryButton key={thread.threadId} version={report.version} threadId={thread.threadId} onOpenProposal={onOpenProposal} />
      ) : null}
      <Section title="Session">
        <SessionFacts thread={thread} now={now} onOpenSession={onOpenSession} />
      </Section>
      <Section title="Stage-1 job">
        <JobFacts
          job={thread.job}
          now={now}
          neverRetried={thread.reason !== null && (thread.stage === 'failed' || thread.stage === 'exhausted')}
        />
      </Section>
      <Section title="Stage-1 output">
        <OutputFacts output={thread.output} now={now} />
      </Section>
      <Section title="In the memory root">
        <Presence thread={thread} version={report.version} onOpenFile={onOpenFile} />
      </Section>
    </aside>
  );
}
