// The three-way view of the active conflict: base -> disk and base -> proposal in Monaco, the conflict marked, and its resolution.
import { lazy, Suspense, useState } from 'react';
import type { Hunk, HunkDecision } from '../../../shared/review';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { ConflictActions } from './conflict-hunk';
import type { ReviewFile } from './use-hunk-cursor';

const DiffEditor = lazy(() => import('./diff-editor').then((module) => ({ default: module.DiffEditor })));

export interface ThreeWayViewProps {
  proposalId: string;
  file: ReviewFile;
  hunk: Hunk;
  /** "Conflict 2 of 3". */
  position: { index: number; count: number };
  decision: HunkDecision | undefined;
  edit: string | undefined;
  colorScheme: ColorScheme;
  readOnly: boolean;
  /** The hand editor is open (the `e` key or the Edit button). */
  editing: boolean;
  onEditing: (open: boolean) => void;
  onResolve: (decision: HunkDecision, edit?: string) => void;
}

function HandEditor({ initial, onSave, onCancel }: { initial: string; onSave: (text: string) => void; onCancel: () => void }) {
  const [text, setText] = useState(initial);
  return (
    <div className="conflict-editor" data-testid="conflict-editor">
      <label className="field">
        <span>Your lines for this conflict (they replace the disk&rsquo;s and the proposal&rsquo;s)</span>
        <textarea
          data-testid="conflict-edit-text"
          value={text}
          rows={Math.min(16, Math.max(4, text.split('\n').length + 1))}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') onCancel();
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) onSave(text);
          }}
          autoFocus
        />
      </label>
      <div className="apply-actions">
        <button type="button" className="button button-small button-primary" data-testid="conflict-edit-save" onClick={() => onSave(text)}>
          Use these lines <kbd>Ctrl</kbd>+<kbd>Enter</kbd>
        </button>
        <button type="button" className="button button-small" onClick={onCancel}>
          Cancel <kbd>Esc</kbd>
        </button>
      </div>
    </div>
  );
}

const joinLines = (text: readonly string[]) => (text.length === 0 ? '' : `${text.join('\n')}\n`);

/** Base → disk and base → proposal side by side, the conflicting lines marked on each. */
function ThreeWayPanes({
  proposalId,
  file,
  conflict: c,
  colorScheme,
}: Pick<ThreeWayViewProps, 'proposalId' | 'file' | 'colorScheme'> & { conflict: NonNullable<ThreeWayViewProps['hunk']['conflict']> }) {
  const texts = useStudioQuery('review.mergeTexts', proposalId ? { id: proposalId, ord: file.ord } : skipToken);
  return texts.error ? (
    <ErrorPanel
      compact
      title={`Cannot read the versions of ${file.relPath}`}
      error={toStudioError(texts.error)}
      onRetry={() => void texts.refetch()}
    />
  ) : !texts.data ? (
    <LoadingState inline label="Reading the three versions…" />
  ) : (
    <Suspense fallback={<LoadingState label="Loading the diff editor…" />}>
      <div className="three-way-pane" data-testid="three-way-theirs">
        <h4 className="small" title="Base → on disk now (theirs): what changed on disk since you proposed it">
          Base → on disk now (theirs): what changed on disk since you proposed it
        </h4>
        <DiffEditor
          modelKey={`theirs:${file.ord}:${file.baseSha256 ?? 'absent'}`}
          path={file.relPath}
          original={texts.data.base ?? ''}
          modified={texts.data.theirs ?? ''}
          colorScheme={colorScheme}
          revealLine={Math.max(c.theirs.start, 1)}
          highlight={{ original: c.base, modified: c.theirs }}
          label="Base to disk"
        />
      </div>
      <div className="three-way-pane" data-testid="three-way-ours">
        <h4 className="small" title="Base → proposal (ours): what the proposal changes">
          Base → proposal (ours): what the proposal changes
        </h4>
        <DiffEditor
          modelKey={`ours:${file.ord}:${file.baseSha256 ?? 'absent'}`}
          path={file.relPath}
          original={texts.data.base ?? ''}
          modified={texts.data.ours ?? ''}
          colorScheme={colorScheme}
          revealLine={Math.max(c.own.start, 1)}
          highlight={{ original: c.base, modified: c.own }}
          label="Base to proposal"
        />
      </div>
    </Suspense>
  );
}

export function ThreeWayView({
  proposalId,
  file,
  hunk,
  position,
  decision,
  edit,
  colorScheme,
  readOnly,
  editing,
  onEditing,
  onResolve,
}: ThreeWayViewProps) {
  const c = hunk.conflict;
  if (!c) return null;
  return (
    <section className="three-way-view" data-testid="conflict-view" data-hunk-id={hunk.id} aria-labelledby="three-way-title">
      <header className="three-way-header">
        <h3 id="three-way-title">
          Conflict {position.index + 1} of {position.count} in {file.relPath}
        </h3>
        <p className="muted small">
          The disk and your proposal both changed these lines (marked). Keys: <kbd>t</kbd> keep the disk&rsquo;s, <kbd>o</kbd> take the
          proposal&rsquo;s, <kbd>b</kbd> both (the disk&rsquo;s first), <kbd>e</kbd> write them by hand, <kbd>n</kbd> next conflict.
        </p>
        {readOnly ? null : (
          <ConflictActions hunk={hunk} decision={decision} onDecide={(_, d) => onResolve(d)} onEdit={() => onEditing(true)} />
        )}
      </header>
      {editing && !readOnly ? (
        <HandEditor
          // One editor per conflict: a click on another conflict's Edit while this one is open starts from that one's lines.
          key={hunk.id}
          initial={edit ?? joinLines(c.ours.text)}
          onCancel={() => onEditing(false)}
          onSave={(text) => {
            onResolve('edit', text);
            onEditing(false);
          }}
        />
      ) : null}
      <div className="three-way-panes">
        <ThreeWayPanes proposalId={proposalId} file={file} conflict={c} colorScheme={colorScheme} />
      </div>
    </section>
  );
}
