// The hunks of one file with Accept / Reject each; the active one (j/k) is outlined and scrolled into view.
import { useEffect, useRef } from 'react';
import type { DecisionMap, Hunk, HunkDecision } from '../../../shared/review';

export interface HunkListProps {
  hunks: readonly Hunk[];
  decisions: DecisionMap;
  active: number;
  readOnly: boolean;
  onActivate: (index: number) => void;
  onDecide: (hunk: Hunk, decision: HunkDecision) => void;
}

function hunkTitle(hunk: Hunk): string {
  if (hunk.kind === 'create') return `New file (+${hunk.added})`;
  if (hunk.kind === 'delete') return `Delete the file (−${hunk.removed})`;
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

export function HunkList({ hunks, decisions, active, readOnly, onActivate, onDecide }: HunkListProps) {
  const activeRef = useRef<HTMLLIElement | null>(null);
  useEffect(() => {
    activeRef.current?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  if (hunks.length === 0) return <p className="panel-empty muted">No changes in this file.</p>;
  return (
    <ol className="hunk-list" aria-label="Hunks">
      {hunks.map((hunk, index) => {
        const decision = decisions[hunk.id] ?? 'undecided';
        return (
          <li
            key={hunk.id}
            ref={index === active ? activeRef : undefined}
            className={`hunk-item hunk-${decision}${index === active ? ' hunk-active' : ''}`}
            data-testid="hunk-item"
            data-hunk-id={hunk.id}
            data-decision={decision}
            aria-current={index === active ? 'true' : undefined}
            onClick={() => onActivate(index)}
          >
            <div className="hunk-head">
              <span className="hunk-title">{hunkTitle(hunk)}</span>
              <span className={`badge badge-small ${decision === 'accept' ? 'badge-ok' : decision === 'reject' ? 'badge-error' : 'badge-muted'}`}>
                {decision === 'accept' ? 'Accepted' : decision === 'reject' ? 'Rejected' : 'Undecided'}
              </span>
              {readOnly ? null : (
                <span className="hunk-actions">
                  <button type="button" className="button button-small" data-testid="accept-hunk" aria-pressed={decision === 'accept'} onClick={() => onDecide(hunk, 'accept')}>
                    Accept <kbd>a</kbd>
                  </button>
                  <button type="button" className="button button-small" data-testid="reject-hunk" aria-pressed={decision === 'reject'} onClick={() => onDecide(hunk, 'reject')}>
                    Reject <kbd>r</kbd>
                  </button>
                </span>
              )}
            </div>
            <HunkLines lines={hunk.lines} />
          </li>
        );
      })}
    </ol>
  );
}
