// Where a rollout summary came from: its thread, the session file (and whether it still exists), and Open session.
import type { MemoryVersion } from '../../../shared/domain';
import type { PointerResolution } from '../../../shared/provenance';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { Fact } from '../common/fact';
import { LoadingState } from '../common/loading-state';

export interface ProvenanceSectionProps {
  version: MemoryVersion;
  path: string;
  onOpenSession: (threadId: string) => void;
}

const viaText: Record<NonNullable<PointerResolution['sessionVia']>, string> = {
  'state-db': "Codex's thread catalog (state_5.sqlite)",
  scan: 'a scan of sessions/',
  'summary-header': "the summary's rollout_path header",
};

function sessionProblem(resolution: PointerResolution): string | null {
  if (!resolution.threadId) return `${resolution.file} names no thread_id, so its session cannot be found.`;
  if (!resolution.sessionPath) return `No session file for thread ${resolution.threadId} in this Codex home; it may have been deleted.`;
  if (!resolution.sessionExists) return `The session file ${resolution.sessionPath} does not exist any more; Codex may have deleted it.`;
  return null;
}

function Facts({ resolution }: { resolution: PointerResolution }) {
  const header = resolution.header;
  return (
    <dl className="facts">
      <Fact term="Thread">
        <code data-testid="provenance-thread-id">{resolution.threadId ?? 'unknown'}</code>
        {resolution.threadIdFrom === 'hint' ? <span className="muted"> (from the pointer; the summary has no thread_id)</span> : null}
      </Fact>
      {header?.updatedAt ? <Fact term="Updated">{header.updatedAt}</Fact> : null}
      {header?.cwd ? (
        <Fact term="Project">
          <code className="break">{header.cwd}</code>
        </Fact>
      ) : null}
      {header?.gitBranch ? (
        <Fact term="Branch">
          <code>{header.gitBranch}</code>
        </Fact>
      ) : null}
      <Fact term="Session">
        {resolution.sessionPath ? <code className="break">{resolution.sessionPath}</code> : <span className="muted">not found</span>}
        {resolution.sessionPath ? (
          <span className={resolution.sessionExists ? 'muted' : 'text-danger'}>
            {resolution.sessionExists
              ? ` (exists; found via ${resolution.sessionVia ? viaText[resolution.sessionVia] : 'an unknown route'})`
              : ' (missing)'}
          </span>
        ) : null}
      </Fact>
    </dl>
  );
}

export function ProvenanceSection({ version, path, onOpenSession }: ProvenanceSectionProps) {
  const query = useStudioQuery('provenance.pointer', path ? { version, file: path } : skipToken);
  const resolution = query.data;
  const problem = resolution ? sessionProblem(resolution) : null;
  return (
    <section className="inspector-section" aria-labelledby="inspector-provenance">
      <h3 id="inspector-provenance">Provenance</h3>
      {query.error ? (
        <ErrorPanel
          compact
          title={`Cannot follow ${path} to its session`}
          error={toStudioError(query.error)}
          onRetry={() => void query.refetch()}
        />
      ) : !resolution ? (
        <LoadingState inline label="Looking up the session…" />
      ) : (
        <>
          <Facts resolution={resolution} />
          {problem ? <p className="inspector-note text-warn">{problem}</p> : null}
          {resolution.notes.map((note) => (
            <p key={note} className="inspector-note muted">
              {note}
            </p>
          ))}
          <button
            type="button"
            className="button button-small"
            data-testid="open-session"
            disabled={!resolution.threadId || !resolution.sessionExists}
            onClick={() => resolution.threadId && onOpenSession(resolution.threadId)}
          >
            Open session
          </button>
        </>
      )}
    </section>
  );
}
