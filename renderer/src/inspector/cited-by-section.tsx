// "Cited by": the sessions whose answers cited this file, when, and which lines; each opens the session or jumps.
import { useState } from 'react';
import type { MemoryVersion } from '../../../shared/domain';
import type { CitedByEntry } from '../../../shared/provenance';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { formatUnix, shortId } from '../lib/format';
import type { LineSpan } from '../navigation/location';

export interface CitedBySectionProps {
  version: MemoryVersion;
  path: string;
  onJump: (span: LineSpan) => void;
  onOpenSession: (threadId: string) => void;
}

const CAP = 50;

function CitationRow({ entry, onJump, onOpenSession }: { entry: CitedByEntry } & Pick<CitedBySectionProps, 'onJump' | 'onOpenSession'>) {
  const span = entry.lineStart !== null ? { line: entry.lineStart, endLine: entry.lineEnd ?? entry.lineStart } : null;
  return (
    <li className="cited-row" data-testid="cited-by-entry">
      <span className="cited-head">
        <button
          type="button"
          className="link-button"
          title={`Open session ${entry.threadId}`}
          onClick={() => onOpenSession(entry.threadId)}
        >
          session {shortId(entry.threadId)}
        </button>
        <span className="muted">{formatUnix(entry.time, 'time unknown')}</span>
      </span>
      <span className="cited-body">
        {span ? (
          <button type="button" className="link-button" onClick={() => onJump(span)}>
            {span.line === span.endLine ? `line ${span.line}` : `lines ${span.line}–${span.endLine}`}
          </button>
        ) : (
          <span className="muted">{entry.via === 'rollout_id' ? 'named its thread in rollout_ids' : 'the whole file'}</span>
        )}
        {entry.note ? <span className="cited-note">“{entry.note}”</span> : null}
      </span>
    </li>
  );
}

export function CitedBySection({ version, path, onJump, onOpenSession }: CitedBySectionProps) {
  const query = useStudioQuery('provenance.citedBy', path ? { version, path } : skipToken);
  const [showAll, setShowAll] = useState(false);
  const entries = query.data ?? [];
  const shown = showAll ? entries : entries.slice(0, CAP);
  return (
    <section className="inspector-section" aria-labelledby="inspector-cited-by">
      <h3 id="inspector-cited-by">
        Cited by <span className="muted">{query.data ? entries.length : '…'}</span>
      </h3>
      {query.error ? (
        <ErrorPanel
          compact
          title={`Cannot read which sessions cited ${path}`}
          error={toStudioError(query.error)}
          onRetry={() => void query.refetch()}
        />
      ) : !query.data ? (
        <LoadingState inline label="Reading session citations…" />
      ) : entries.length === 0 ? (
        <p className="panel-empty muted">No session in this Codex home has cited {path} yet.</p>
      ) : (
        <ul className="inspector-list">
          {shown.map((entry, index) => (
            <CitationRow key={`${entry.sessionPath}-${entry.line}-${index}`} entry={entry} onJump={onJump} onOpenSession={onOpenSession} />
          ))}
        </ul>
      )}
      {shown.length < entries.length ? (
        <button type="button" className="button button-small" onClick={() => setShowAll(true)}>
          Show all {entries.length.toLocaleString()} citations
        </button>
      ) : null}
    </section>
  );
}
