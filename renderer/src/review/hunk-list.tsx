// The hunks of one file with Accept / Reject each (Theirs / Ours / Both / Edit for a conflict); the active one (j/k) is outlined.
import { useEffect, useRef } from 'react';
import type { DecisionMap, Hunk, HunkDecision } from '../../../shared/review';
import { ConflictLines, ConflictActions, conflictBadge } from './conflict-hunk';

export interface HunkListProps {
  hunks: readonly Hunk[];
  decisions: DecisionMap;
  active: number;
  readOnly: boolean;
  onActivate: (index: number) => void;
  onDecide: (hunk: Hunk, decision: HunkDecision) => void;
  /** Opens the hand editor of a conflict hunk (the three-way view). */
  onEdit?: (index: number) => void;
}

function hunkTitle(hunk: Hunk): string {
  if (hunk.kind === 'create') return `New file (+${hunk.added})`;
  if (hunk.kind === 'delete') return `Delete the file (−${hunk.removed})`;
  if (hunk.conflict?.absent === 'theirs') return 'Conflict: deleted on disk, changed by the proposal';
  if (hunk.conflict?.absent === 'ours') return 'Conflict: changed on disk, deleted by the proposal';
  if (hunk.conflict) {
    const { theirs, ours } = hunk.conflict;
    const at = theirs.lines === 0 ? `after line ${theirs.start}` : theirs.lines === 1 ? `line ${theirs.start}` : `lines ${theirs.start}–${theirs.start + theirs.lines - 1}`;
    const count = (n: number) => `${n} line${n === 1 ? '' : 's'}`;
    return `Conflict at ${at} (disk: ${count(theirs.lines)}, proposal: ${count(ours.lines)})`;
  }
  const where = hunk.newLines === 0 ? `after line ${hunk.newStart}` : hunk.newLines === 1 ? `line ${hunk.newStart}` : `lines ${hunk.newStart}–${hunk.newStart + hunk.newLines - 1}`;
  return `${where} (+${hunk.added} −${hunk.removed})`;
}

const lineClass = (line: string) => (line.startsWith('+') ? 'hunk-line hunk-add' : line.startsWith('-') ? 'hunk-line hunk-del' : 'hunk-line');

/** Long hunks show their first lines only; the diff editor above has the rest. */
const MAX_LINES = 40;

function HunkLines({ lines }: { lines: readonly string[] }) {
  const shown = lines.slice(0, MAX_LINES);
  return (
    <pre className="hunk-lines">
      {shown.map((line, index) => (
        <span key={index} className={lineClass(line)}>
          {line}
          {'\n'}
        </span>
      ))}
      {lines.length > MAX_LINES ? <span className="hunk-line muted">… {lines.length - MAX_LINES} more lines</span> : null}
    </pre>
  );
}

function decisionBadge(hunk: Hunk, decision: HunkDecision | undefined): { label: string; className: string } {
  if (hunk.kind === 'conflict') return conflictBadge(decision);
  if (decision === 'accept') return { label: 'Accepted', className: 'badge-ok' };
  if (decision === 'reject') return { label: 'Rejected', className: 'badge-error' };
  return { label: 'Undecided', className: 'badge-muted' };
}

function ChangeActions({ hunk, decision, onDecide }: { hunk: Hunk; decision: HunkDecision | undefined; onDecide: HunkListProps['onDecide'] }) {
  return (
    <span className="hunk-actions">
      <button type="button" className="button button-small" data-testid="accept-hunk" aria-pressed={decision === 'accept'} onClick={() => onDecide(hunk, 'accept')}>
        Accept <kbd>a</kbd>
      </button>
      <button type="button" className="button button-small" data-testid="reject-hunk" aria-pressed={decision === 'reject'} onClick={() => onDecide(hunk, 'reject')}>
        Reject <kbd>r</kbd>
      </button>
    </span>
  );
}

export function HunkList({ hunks, decisions, active, readOnly, onActivate, onDecide, onEdit }: HunkListProps) {
  const activeRef = useRef<HTMLLIElement | null>(null);
  useEffect(() => {
    activeRef.current?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  if (hunks.length === 0) return <p className="panel-empty muted">No changes in this file.</p>;
  return (
    <ol className="hunk-list" aria-label="Hunks">
      {hunks.map((hunk, index) => {
        const decision = decisions[hunk.id];
        const badge = decisionBadge(hunk, decision);
        const conflict = hunk.kind === 'conflict';
        return (
          <li
            key={hunk.id}
            ref={index === active ? activeRef : undefined}
            className={`hunk-item hunk-${decision ?? 'undecided'}${conflict ? ' hunk-conflict' : ''}${index === active ? ' hunk-active' : ''}`}
            data-testid="hunk-item"
            data-hunk-id={hunk.id}
            data-kind={hunk.kind}
            data-decision={decision ?? 'undecided'}
            aria-current={index === active ? 'true' : undefined}
            onClick={() => onActivate(index)}
          >
            <div className="hunk-head">
              <span className="hunk-title">{hunkTitle(hunk)}</span>
              {readOnly && !decision ? null : <span className={`badge badge-small ${badge.className}`}>{badge.label}</span>}
              {readOnly ? null : conflict ? <ConflictActions hunk={hunk} decision={decision} onDecide={onDecide} onEdit={() => onEdit?.(index)} /> : <ChangeActions hunk={hunk} decision={decision} onDecide={onDecide} />}
            </div>
            {conflict ? <ConflictLines hunk={hunk} /> : <HunkLines lines={hunk.lines} />}
          </li>
        );
      })}
    </ol>
  );
}
