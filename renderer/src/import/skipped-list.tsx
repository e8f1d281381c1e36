// Everything a source holds that will not be imported, each with the reason the person reads (and its code as a chip).
import type { SkippedEntry } from '../../../shared/import';

export function SkippedList({ skipped, title = 'Skipped' }: { skipped: readonly SkippedEntry[]; title?: string }) {
  if (skipped.length === 0)
    return (
      <p className="muted small" data-testid="skipped-none">
        Nothing was skipped.
      </p>
    );
  return (
    <section className="import-skipped" aria-label={title}>
      <h3 className="page-section-title">
        {title} <span className="muted">{skipped.length}</span>
      </h3>
      <ul className="plain-list">
        {skipped.map((entry, index) => (
          <li
            key={`${entry.path}:${entry.code}:${index}`}
            className="import-skipped-row"
            data-testid="skipped-entry"
            data-code={entry.code}
          >
            <span className="badge badge-warn badge-small">{entry.code}</span> <code className="break">{entry.path}</code>
            <span className="muted"> — {entry.reason}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
