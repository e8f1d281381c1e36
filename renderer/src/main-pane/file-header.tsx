// The strip above the editor: which file this is, its kind, size and modification time, and the panel toggles.
import type { ReactNode } from 'react';
import { fileKindLabels, type FileContent } from '../../../shared/domain';
import { arrivalOf } from '../lib/arrivals';
import { formatBytes, formatTime, HIGHLIGHT_MAX_CHARS } from '../lib/format';

export interface FileHeaderProps {
  file: FileContent;
  /** Set while another file is loading behind this one. */
  pendingPath: string | null;
  /** Buttons at the right end (outline and inspector toggles). */
  actions?: ReactNode;
  /** The hand editor is open: the header says Editing, not Read-only. */
  editing?: boolean;
  /** "not read by Codex (config: v1)" when a new Codex session is not told this file's root. */
  notRead?: string | null;
}

/** Whether Codex reads this root, and whether the hand editor is open. */
function StateBadges({ editing, notRead }: { editing: boolean; notRead: string | null }) {
  return (
    <>
      {notRead ? (
        <span className="badge badge-warn" data-testid="file-not-read" title="A new Codex session is not told this root's memory">
          {notRead}
        </span>
      ) : null}
      {editing ? (
        <span className="badge badge-info" data-testid="mode-badge" title="Your edits stay here until you Propose them for review">
          Editing
        </span>
      ) : (
        <span
          className="badge badge-muted"
          data-testid="mode-badge"
          title="Changes reach the disk only as reviewed proposals: Edit, then Propose"
        >
          Read-only
        </span>
      )}
    </>
  );
}

export function FileHeader({ file, pendingPath, actions, editing = false, notRead = null }: FileHeaderProps) {
  const arrival = arrivalOf(file.path);
  return (
    <header className="file-header">
      <div className="file-header-main">
        <span className="badge badge-version">{file.version}</span>
        <h1 className="file-path" title={file.path}>
          {file.path}
        </h1>
        <span className="badge">{fileKindLabels[file.kind]}</span>
        {arrival.owner ? (
          <span
            className="badge badge-muted"
            data-testid="arrival-badge"
            title="Arrived through sync: its pointers open the rollout summaries that came with it; the sessions they name are on that machine"
          >
            on {arrival.owner}
          </span>
        ) : null}
        <StateBadges editing={editing} notRead={notRead} />
        {actions ? <span className="file-header-actions">{actions}</span> : null}
      </div>
      <dl className="file-meta">
        <div>
          <dt>Size</dt>
          <dd>{formatBytes(file.size)}</dd>
        </div>
        <div>
          <dt>Lines</dt>
          <dd>{file.lineCount.toLocaleString()}</dd>
        </div>
        <div>
          <dt>Modified</dt>
          <dd>
            <time dateTime={Number.isFinite(file.mtimeMs) ? new Date(file.mtimeMs).toISOString() : undefined}>
              {formatTime(file.mtimeMs)}
            </time>
          </dd>
        </div>
        {file.content.length > HIGHLIGHT_MAX_CHARS ? (
          // In the header, not over the editor: a note on top of the text hid its first lines.
          <div
            data-testid="plain-text-note"
            title="Monaco's Markdown colouring and line wrapping would block the window for a file this big."
          >
            <dt>Shown as</dt>
            <dd>plain text, unwrapped (over {(HIGHLIGHT_MAX_CHARS / 1_000_000).toFixed(0)} million characters)</dd>
          </div>
        ) : null}
        {file.eol === 'crlf' ? (
          <div>
            <dt>Line endings</dt>
            <dd>CRLF</dd>
          </div>
        ) : null}
        {pendingPath ? (
          <div className="file-pending" role="status">
            <span className="spinner spinner-small" aria-hidden="true" />
            Opening {pendingPath}…
          </div>
        ) : null}
      </dl>
    </header>
  );
}
