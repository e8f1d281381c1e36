// The memory settings Codex runs with (defaults and clamps applied), each with the note config.toml earned it.
import type { Diagnostic, MemoriesConfig } from '../../../shared/domain';
import type { HealthReport } from '../../../shared/health';

export interface ConfigCardProps {
  config: HealthReport['config'];
  /** home.config.diagnostics: clamps, unknown and renamed keys, type errors. */
  diagnostics: readonly Diagnostic[];
  configPath: string | null;
}

const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** What an unset string key means to Codex (its default), by field. */
const UNSET: Partial<Record<keyof MemoriesConfig, string>> = {
  consolidationServiceTier: "not set (Codex's default: the consolidation request names no service tier)",
};

function valueText(field: keyof MemoriesConfig, value: MemoriesConfig[keyof MemoriesConfig]): string {
  if (value === null) return UNSET[field] ?? 'not set (Codex picks the model)';
  return typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
}

/** Diagnostics name the key as written (`memories.max_unused_days = …`); match them to the row. */
function notesFor(key: string, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => d.message.startsWith(`memories.${key} `) || d.message.startsWith(`memories.${key}=`));
}

export function ConfigCard({ config, diagnostics, configPath }: ConfigCardProps) {
  const rows = (Object.keys(config.memories) as Array<keyof MemoriesConfig>).map((field) => ({ field, key: snake(field) }));
  const matched = new Set(rows.flatMap((row) => notesFor(row.key, diagnostics)));
  const other = diagnostics.filter((d) => !matched.has(d));
  return (
    <section className="card" aria-labelledby="health-config" data-testid="health-config">
      <h2 id="health-config">Config in force</h2>
      <p className="card-sub muted">
        {configPath ? <code className="break">{configPath}</code> : 'config.toml'} · [features] memories ={' '}
        {config.featureMemories === null ? 'not set (off)' : String(config.featureMemories)} · active versions:{' '}
        {config.activeVersions.length > 0 ? config.activeVersions.join(', ') : 'none'}
      </p>
      <table className="counts-table config-table">
        <tbody>
          {rows.map(({ field, key }) => (
            <tr key={field}>
              <th scope="row">
                <code>{key}</code>
              </th>
              <td>
                {valueText(field, config.memories[field])}
                {notesFor(key, diagnostics).map((d) => (
                  <span key={d.message} className={`config-note text-${d.severity === 'error' ? 'danger' : 'warn'}`}>
                    {' '}
                    {d.message}
                  </span>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {other.length > 0 ? (
        <ul className="plain-list">
          {other.map((d) => (
            <li key={`${d.rule}-${d.message}`}>
              <span className={`badge badge-small badge-${d.severity}`}>{d.severity}</span> {d.message}
              {d.line !== undefined ? <span className="muted"> (line {d.line})</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
