// The lint warnings the import's files will raise once written in memory, per file, shown before the person proposes.
import type { PlannedLint } from '../../../shared/import';

export function PlannedLintWarnings({ lint }: { lint: readonly PlannedLint[] }) {
  if (lint.length === 0) return null;
  const total = lint.reduce((n, f) => n + f.diagnostics.length, 0);
  return (
    <details className="notice notice-warn import-lint" data-testid="import-lint" data-count={total}>
      <summary>
        <strong>
          These files will raise {total} lint warning{total === 1 ? '' : 's'}
        </strong>{' '}
        in {lint.length} file{lint.length === 1 ? '' : 's'} once imported (Health lists them too). Fix them in the source, or after the
        import.
      </summary>
      <ul className="import-lint-files">
        {lint.map((file) => (
          <li key={`${file.version} ${file.relPath}`} data-testid="import-lint-file" data-path={file.relPath} data-version={file.version}>
            <span className="badge badge-small">{file.version}</span>{' '}
            <code className="import-lint-path" title={file.relPath}>
              {file.relPath}
            </code>
            <ul>
              {file.diagnostics.map((d, i) => (
                <li key={i} className="small" data-testid="import-lint-diagnostic" data-rule={d.rule} data-line={d.line}>
                  <span className="muted">
                    line {d.line} · {d.rule}:
                  </span>{' '}
                  {d.message}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </details>
  );
}
