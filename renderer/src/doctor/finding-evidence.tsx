// What triggered a finding, shown as the text itself: shared lines, the memory line beside its rule, the reasons, the cut.
import { useState } from 'react';
import type { DoctorEntry, Finding } from '../../../shared/doctor';
import type { MemoryVersion } from '../../../shared/domain';
import type { LineSpan } from '../navigation/location';
import { formatUnix } from '../lib/format';

export type OpenFile = (version: MemoryVersion, path: string, span?: LineSpan) => void;

interface EvidenceProps {
  finding: Finding;
  entries: ReadonlyMap<string, DoctorEntry>;
  onOpen: OpenFile;
}

function Where({ finding, line, endLine, onOpen }: { finding: Finding; line: number; endLine?: number; onOpen: OpenFile }) {
  const label = endLine && endLine !== line ? `${finding.file}:${line}–${endLine}` : `${finding.file}:${line}`;
  return (
    <button
      type="button"
      className="link-button doctor-where"
      data-testid="doctor-open-line"
      onClick={() => onOpen(finding.version, finding.file, { line, endLine: endLine ?? line })}
      title={`Open ${finding.version} ${label}`}
    >
      {label}
    </button>
  );
}

function Duplicate({ finding, entries, onOpen }: EvidenceProps) {
  if (finding.evidence.kind !== 'duplicate') return null;
  const kept = entries.get(finding.evidence.keptId);
  const more = finding.evidence.memberCount - finding.evidence.members.length;
  return (
    <div className="doctor-evidence">
      <p className="small">
        Kept by a merge: {kept ? <Where finding={finding} line={kept.line} endLine={kept.endLine} onOpen={onOpen} /> : null}{' '}
        <strong>{kept?.title}</strong>
      </p>
      <ul className="doctor-members">
        {finding.evidence.members.map((m) => {
          const entry = entries.get(m.entryId);
          return (
            <li key={m.entryId} data-testid="doctor-member">
              {entry ? <Where finding={finding} line={entry.line} endLine={entry.endLine} onOpen={onOpen} /> : null}{' '}
              <span className="muted small">
                similarity {m.similarity.toFixed(2)} · {m.sharedCount} of {m.lineCount} lines shared
              </span>
              {m.sharedLines.length > 0 ? (
                <pre className="doctor-lines">{m.sharedLines.map((l) => `${l.line}  ${l.text}`).join('\n')}</pre>
              ) : null}
            </li>
          );
        })}
      </ul>
      {more > 0 ? <p className="muted small">…and {more} more with the same text.</p> : null}
    </div>
  );
}

function Overlap({ finding, onOpen }: EvidenceProps) {
  if (finding.evidence.kind !== 'agents-overlap') return null;
  const ruleFile = finding.evidence.ruleFile;
  return (
    <div className="doctor-evidence">
      {finding.evidence.matches.map((m) => (
        <div key={`${m.memoryLine}:${m.ruleLine}`} className="doctor-side-by-side" data-testid="doctor-overlap" data-relation={m.relation}>
          <div>
            <div className="small muted">
              Memory <Where finding={finding} line={m.memoryLine} onOpen={onOpen} />
            </div>
            <pre className="doctor-lines">{m.memoryText}</pre>
          </div>
          <div>
            <div className="small muted">
              Rule{' '}
              <code className="break">
                {ruleFile}:{m.ruleLine}
              </code>{' '}
              · {m.relation === 'restates' ? 'restates it' : 'same subject'} ({m.terms.join(', ')})
            </div>
            <pre className="doctor-lines">{m.ruleText}</pre>
          </div>
        </div>
      ))}
    </div>
  );
}

function Stale({ finding, onOpen }: EvidenceProps) {
  if (finding.evidence.kind !== 'stale') return null;
  return (
    <ul className="doctor-reasons">
      {finding.evidence.reasons.map((r) => (
        <li key={r.reason} data-testid="doctor-reason" data-reason={r.reason}>
          {r.reason === 'pointers-gone' ? (
            <>
              {r.pointers.length} of {r.total} pointers lead nowhere:{' '}
              {r.pointers.slice(0, 3).map((p) => (
                <span key={p.file}>
                  <Where finding={finding} line={p.line} onOpen={onOpen} /> <code className="break">{p.file}</code>{' '}
                </span>
              ))}
            </>
          ) : r.reason === 'project-gone' ? (
            <>
              The project folder <code className="break">{r.cwd}</code> no longer exists.
            </>
          ) : (
            <>
              {r.since === 'citation'
                ? `Last cited ${formatUnix(r.lastCitedAt === null ? null : { seconds: r.lastCitedAt })}, ${r.days} days ago.`
                : `Never cited; its newest session is ${r.days} days old.`}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Entries of the cut listed before "Show all": the first ones say what is lost, the rest is there on request. */
const CUT_SHOWN = 6;

function Oversize({ finding, onOpen }: EvidenceProps) {
  const [all, setAll] = useState(false);
  if (finding.evidence.kind !== 'oversize') return null;
  const cut = finding.evidence.cut;
  const shown = all ? cut : cut.slice(0, CUT_SHOWN);
  return (
    <div className="doctor-evidence">
      <p className="small">
        In the cut, in order ({finding.evidence.estimatedTokens.toLocaleString()} of {finding.evidence.limitTokens.toLocaleString()}{' '}
        tokens):
      </p>
      <ol className="doctor-cut">
        {shown.map((c) => (
          <li key={c.entryId} data-testid="doctor-cut">
            <Where finding={finding} line={c.line} endLine={c.endLine} onOpen={onOpen} /> {c.title}{' '}
            {c.partial ? <span className="muted small">(partly)</span> : null}
          </li>
        ))}
      </ol>
      {cut.length > CUT_SHOWN ? (
        <button
          type="button"
          className="link-button small"
          data-testid="doctor-cut-toggle"
          aria-expanded={all}
          onClick={() => setAll(!all)}
        >
          {all ? `Show the first ${CUT_SHOWN}` : `Show all ${cut.length} entries in the cut`}
        </button>
      ) : null}
    </div>
  );
}

export function FindingEvidence(props: EvidenceProps) {
  switch (props.finding.kind) {
    case 'duplicate':
      return <Duplicate {...props} />;
    case 'agents-overlap':
      return <Overlap {...props} />;
    case 'stale':
      return <Stale {...props} />;
    case 'oversize':
      return <Oversize {...props} />;
  }
}
