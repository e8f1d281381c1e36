// Read-only hunks (history diffs, changes since the baseline): a header per hunk and its coloured lines.
import type { Hunk } from '../../../shared/review';

const lineClass = (line: string) => (line.startsWith('+') ? 'hunk-line hunk-add' : line.startsWith('-') ? 'hunk-line hunk-del' : 'hunk-line');

export function HunkPreview({ hunks, empty }: { hunks: readonly Hunk[]; empty: string }) {
  if (hunks.length === 0) return <p className="muted small">{empty}</p>;
  return (
    <ol className="hunk-list">
      {hunks.map((hunk) => (
        <li key={hunk.id} className="hunk-item">
          <div className="hunk-head">
            <code className="muted">@@ −{hunk.oldStart},{hunk.oldLines} +{hunk.newStart},{hunk.newLines} @@</code>
            <span className="text-ok">+{hunk.added}</span> <span className="text-danger">−{hunk.removed}</span>
          </div>
          <pre className="hunk-lines">
            {hunk.lines.map((line, index) => (
              <span key={index} className={lineClass(line)}>
                {line}
                {'\n'}
              </span>
            ))}
          </pre>
        </li>
      ))}
    </ol>
  );
}
