// A session rollout seen from memory: its thread, cwd, start, assistant messages, and the memory it cited (links back).
import type { MemoryVersion } from '../../../shared/domain';
import type { ResolvedSessionCitation, SessionReading } from '../../../shared/sessions';
import { useStudioMutation, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { Fact } from '../common/fact';
import { LoadingState } from '../common/loading-state';
import { useDelayedFlag } from '../hooks/use-delayed-flag';
import { formatBytes, formatUnix, plural, shortId } from '../lib/format';
import type { LineSpan } from '../navigation/location';

export interface SessionViewProps {
  threadId: string;
  onOpenFile: (version: MemoryVersion, path: string, span?: LineSpan) => void;
  onOpenSession: (threadId: string) => void;
  /** Shows the "forget this session" proposal in the Review view. */
  onOpenProposal: (id: string) => void;
  back: { label: string; onBack: () => void } | null;
}

type Links = Omit<SessionViewProps, 'threadId' | 'back' | 'onOpenProposal'>;

/** Core resolved where each cited path is in this home (`entry.target`); without a target the citation is shown, not linked. */
function CitationBlock({ citation, index, links }: { citation: ResolvedSessionCitation; index: number; links: Links }) {
  return (
    <li className="citation-block" data-testid="citation-block">
      <h4>
        Citation {index + 1}{' '}
        <span className="muted">
          · {formatUnix(citation.time, 'time unknown')} · line {citation.line} of the session file
        </span>
      </h4>
      {citation.entries.length === 0 ? <p className="muted">No citation entries (only thread ids).</p> : null}
      <ul className="citation-entries">
        {citation.entries.map((entry, i) => {
          const { target } = entry;
          const lines = entry.lineStart === entry.lineEnd ? `line ${entry.lineStart}` : `lines ${entry.lineStart}–${entry.lineEnd}`;
          return (
            <li key={`${entry.path}-${i}`}>
              {target ? (
                <button
                  type="button"
                  className="link-button"
                  data-testid="citation-entry"
                  data-file={target.path}
                  onClick={() => links.onOpenFile(target.version, target.path, { line: entry.lineStart, endLine: entry.lineEnd })}
                >
                  {target.version}/{target.path} · {lines}
                </button>
              ) : (
                <span title="No memory root of this home has this file">
                  <code>{entry.path}</code> · {lines} <span className="muted">(not in any memory root)</span>
                </span>
              )}
              {entry.note ? <span className="cited-note"> “{entry.note}”</span> : null}
            </li>
          );
        })}
      </ul>
      {citation.threadIds.length > 0 ? (
        <p className="citation-threads">
          <span className="muted">Memories from threads: </span>
          {citation.threadIds.map((id) => (
            <button key={id} type="button" className="link-button" title={`Open session ${id}`} onClick={() => links.onOpenSession(id)}>
              {shortId(id)}
            </button>
          ))}
        </p>
      ) : null}
    </li>
  );
}

function SessionBody({ session, links }: { session: SessionReading; links: Links }) {
  return (
    <div className="session-body">
      <dl className="facts facts-wide">
        <Fact term="Thread">
          <code data-testid="session-thread-id">{session.threadId ?? 'unknown'}</code>
        </Fact>
        <Fact term="Working directory">
          {session.cwd ? <code className="break">{session.cwd}</code> : <span className="muted">not recorded</span>}
        </Fact>
        <Fact term="Started">{formatUnix(session.startedAt, 'not recorded')}</Fact>
        <Fact term="Assistant messages">
          <span data-testid="session-message-count">{session.assistantMessageCount.toLocaleString()}</span>
        </Fact>
        <Fact term="File">
          <code className="break">{session.path}</code>{' '}
          <span className="muted">
            ({plural(session.lineCount, 'line')}, {formatBytes(session.bytes)})
          </span>
        </Fact>
        {session.cliVersion ? (
          <Fact term="Codex CLI">
            {session.cliVersion}
            {session.source ? ` (${session.source})` : ''}
          </Fact>
        ) : null}
      </dl>
      <section aria-labelledby="session-citations">
        <h3 id="session-citations">
          Memory citations <span className="muted">{session.citations.length}</span>
        </h3>
        {session.citations.length === 0 ? (
          <p className="panel-empty muted">This session did not cite any memory: its answers carry no &lt;oai-mem-citation&gt; block.</p>
        ) : (
          <ol className="citation-list">
            {session.citations.map((citation, index) => (
              <CitationBlock key={`${citation.line}-${index}`} citation={citation} index={index} links={links} />
            ))}
          </ol>
        )}
      </section>
      {session.diagnostics.length > 0 ? (
        <section aria-labelledby="session-diagnostics">
          <h3 id="session-diagnostics">
            Problems reading this session <span className="muted">{session.diagnostics.length}</span>
          </h3>
          <ul className="plain-list">
            {session.diagnostics.map((d, i) => (
              <li key={`${d.rule}-${d.line}-${i}`}>
                <span className={`badge badge-small badge-${d.severity}`}>{d.severity}</span> <code>{d.rule}</code>{' '}
                <span className="muted">line {d.line}</span> {d.message}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** "Forget this session" as Codex's own forget does it, proposed for review (its DB changes show as rows there). */
function ForgetButton({ threadId, onOpenProposal }: { threadId: string; onOpenProposal: (id: string) => void }) {
  const forget = useStudioMutation('review.forget');
  return (
    <>
      <button
        type="button"
        className="button button-small"
        data-testid="forget-session"
        disabled={forget.isPending}
        title="Proposes removing this session's stage-1 memory and turning memory off for its thread; nothing changes until you apply it"
        onClick={() => forget.mutate({ threadId }, { onSuccess: (proposal) => onOpenProposal(proposal.id) })}
      >
        {forget.isPending ? 'Proposing…' : 'Forget this session'}
      </button>
      {forget.error ? <ErrorPanel compact title="Cannot propose forgetting this session" error={toStudioError(forget.error)} /> : null}
    </>
  );
}

export function SessionView({ threadId, back, onOpenProposal, ...links }: SessionViewProps) {
  const query = useStudioQuery('provenance.session', { threadId });
  const showLoading = useDelayedFlag(!query.data && !query.error);
  return (
    <section className="session-view" data-testid="session-view" data-thread-id={threadId} aria-label={`Session ${threadId}`}>
      <header className="file-header">
        <div className="file-header-main">
          {back ? (
            <button type="button" className="button button-small" onClick={back.onBack}>
              ← {back.label}
            </button>
          ) : null}
          <span className="badge">Session</span>
          <h1 className="file-path" title={threadId}>
            {threadId}
          </h1>
          <span className="file-header-actions">
            <ForgetButton threadId={threadId} onOpenProposal={onOpenProposal} />
          </span>
        </div>
      </header>
      <div className="session-scroll">
        {query.error ? (
          <ErrorPanel
            title={`Cannot open the session of thread ${threadId}`}
            error={toStudioError(query.error)}
            onRetry={() => void query.refetch()}
            retrying={query.isFetching}
          />
        ) : query.data ? (
          <SessionBody session={query.data} links={links} />
        ) : showLoading ? (
          <LoadingState label={`Reading the session of thread ${threadId}…`} />
        ) : null}
      </div>
    </section>
  );
}
