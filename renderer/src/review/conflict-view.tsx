// A base that changed on disk: base, current disk and proposal side by side, and a rebase onto the disk's content.
import { useState } from 'react';
import type { ProposalFile } from '../../../shared/review';
import type { StudioError } from '../../../shared/result';
import { useFile } from '../api/queries';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';

export interface ConflictViewProps {
  error: StudioError;
  file: ProposalFile;
  rebasing: boolean;
  rebaseError: Error | null;
  onRebase: () => void;
}

type Pane = 'base' | 'disk' | 'proposal';
const paneLabels: Record<Pane, string> = { base: 'Base (when proposed)', disk: 'Current file on disk', proposal: 'Proposal' };

function PaneText({ text, absent }: { text: string | null | undefined; absent: string }) {
  if (text === undefined) return <p className="muted">Reading…</p>;
  if (text === null) return <p className="muted">{absent}</p>;
  return <pre className="conflict-text">{text}</pre>;
}

export function ConflictView({ error, file, rebasing, rebaseError, onRebase }: ConflictViewProps) {
  const disk = useFile(file.version, file.relPath);
  const [pane, setPane] = useState<Pane>('disk');
  const diskText = disk.error ? null : disk.data?.path === file.relPath ? disk.data.content : undefined;
  const texts: Record<Pane, string | null | undefined> = { base: file.baseContent, disk: diskText, proposal: file.proposedContent };
  return (
    <section className="conflict-view" data-testid="conflict-view" role="alert" aria-labelledby="conflict-title">
      <h3 id="conflict-title">{file.relPath} changed on disk since this proposal was made</h3>
      <p>
        {error.message} Nothing was written. Compare the three versions, then rebase the proposal onto the current file: its hunks are
        recomputed against what is on disk now and every decision starts over.
      </p>
      <div className="segmented" role="tablist" aria-label="Versions">
        {(Object.keys(paneLabels) as Pane[]).map((key) => (
          <button key={key} type="button" role="tab" className="segment" aria-selected={pane === key} onClick={() => setPane(key)}>
            {paneLabels[key]}
          </button>
        ))}
      </div>
      <div className="conflict-pane" role="tabpanel" aria-label={paneLabels[pane]}>
        <PaneText text={texts[pane]} absent={pane === 'disk' ? 'The file is not on disk (or cannot be read).' : pane === 'base' ? 'The file did not exist.' : 'The proposal deletes the file.'} />
      </div>
      {rebaseError ? <ErrorPanel compact title="Cannot rebase" error={toStudioError(rebaseError)} /> : null}
      <button type="button" className="button button-primary" data-testid="rebase-button" onClick={onRebase} disabled={rebasing}>
        {rebasing ? 'Rebasing…' : 'Rebase onto the current file'}
      </button>
    </section>
  );
}
