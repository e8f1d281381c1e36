// A conflict hunk in the hunk list: the base, the disk's and the proposal's lines, and Theirs / Ours / Both / Edit.
import type { ConflictSide, Hunk, HunkDecision } from '../../../shared/review';

const labels: Partial<Record<HunkDecision, string>> = {
  theirs: 'Kept the disk’s',
  ours: 'Took the proposal’s',
  both: 'Both kept',
  edit: 'Edited by hand',
};

export function conflictBadge(decision: HunkDecision | undefined): { label: string; className: string } {
  const label = decision ? labels[decision] : undefined;
  return label ? { label, className: 'badge-ok' } : { label: 'Needs a decision', className: 'badge-warn' };
}

const SHOWN = 12;

function Side({ title, side, tone, absent }: { title: string; side: ConflictSide; tone: string; absent?: string }) {
  const text = side.text.slice(0, SHOWN);
  return (
    <div className={`conflict-side conflict-side-${tone}`}>
      <div className="conflict-side-title small">{title}</div>
      <pre className="hunk-lines">
        {absent ? <span className="hunk-line muted">{absent}</span> : null}
        {!absent && text.length === 0 ? <span className="hunk-line muted">(no lines)</span> : null}
        {text.map((line, index) => (
          <span key={index} className="hunk-line">
            {line}
            {'\n'}
          </span>
        ))}
        {side.text.length > SHOWN ? <span className="hunk-line muted">… {side.text.length - SHOWN} more lines</span> : null}
      </pre>
    </div>
  );
}

/** The conflict's three sides and, once it is written by hand, the lines that replace them. */
export function ConflictLines({ hunk, resolution }: { hunk: Hunk; resolution?: string | undefined }) {
  const c = hunk.conflict;
  if (!c) return null;
  return (
    <>
      <ConflictSides hunk={hunk} />
      {resolution !== undefined ? (
        <div className="conflict-sides conflict-resolution" data-testid="conflict-resolution">
          <Side title="Resolved by hand (replaces all three)" side={{ ...c.ours, text: splitLines(resolution) }} tone="ours" />
        </div>
      ) : null}
    </>
  );
}

const splitLines = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));

function ConflictSides({ hunk }: { hunk: Hunk }) {
  const c = hunk.conflict;
  if (!c) return null;
  return (
    <div className="conflict-sides" data-testid="conflict-sides">
      <Side title="Base (when proposed)" side={c.base} tone="base" />
      <Side
        title="On disk now (theirs)"
        side={c.theirs}
        tone="theirs"
        absent={c.absent === 'theirs' ? 'The file was deleted on disk.' : undefined}
      />
      <Side title="Proposal (ours)" side={c.ours} tone="ours" absent={c.absent === 'ours' ? 'The proposal deletes the file.' : undefined} />
    </div>
  );
}

export interface ConflictActionsProps {
  hunk: Hunk;
  decision: HunkDecision | undefined;
  onDecide: (hunk: Hunk, decision: HunkDecision) => void;
  onEdit: () => void;
}

export function ConflictActions({ hunk, decision, onDecide, onEdit }: ConflictActionsProps) {
  const noBoth = hunk.conflict?.absent !== null && hunk.conflict?.absent !== undefined;
  const choice = (value: 'theirs' | 'ours' | 'both', label: string, key: string) => (
    <button
      type="button"
      className="button button-small"
      data-testid={`resolve-${value}`}
      aria-pressed={decision === value}
      disabled={value === 'both' && noBoth}
      title={value === 'both' && noBoth ? 'One side has no file, so both cannot be kept.' : undefined}
      onClick={(event) => {
        event.stopPropagation();
        onDecide(hunk, value);
      }}
    >
      {label} <kbd>{key}</kbd>
    </button>
  );
  return (
    <span className="hunk-actions">
      {choice('theirs', 'Theirs', 't')}
      {choice('ours', 'Ours', 'o')}
      {choice('both', 'Both', 'b')}
      <button
        type="button"
        className="button button-small"
        data-testid="resolve-edit"
        aria-pressed={decision === 'edit'}
        onClick={(event) => {
          event.stopPropagation();
          onEdit();
        }}
      >
        Edit <kbd>e</kbd>
      </button>
    </span>
  );
}
