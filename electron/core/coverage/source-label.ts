// `threads.source` for people: Codex stores a name (`cli`, `exec`) or a JSON value (`{"custom":"atlas"}`, a sub-agent's).

const NAMED: Record<string, string> = {
  cli: 'Codex CLI',
  vscode: 'VS Code',
  exec: 'codex exec',
  mcp: 'MCP server',
  unknown: 'unknown source',
};

/** Custom sources Codex 0.171.0 writes for sessions that come from elsewhere. */
const CUSTOM: Record<string, string> = { atlas: 'Atlas', chatgpt: 'ChatGPT' };

function subAgentLabel(value: unknown): string {
  if (typeof value === 'string') return `sub-agent (${value.replace(/_/g, ' ')})`;
  if (value && typeof value === 'object') {
    const kind = Object.keys(value)[0];
    if (kind) return `sub-agent (${kind.replace(/_/g, ' ')})`;
  }
  return 'sub-agent';
}

/** A short label: `Codex CLI`, `codex exec`, `Atlas`, `ChatGPT`, `sub-agent (review)`; the raw value when unknown. */
export function sourceLabel(source: string | null): string {
  if (source === null || source === '') return 'unknown source';
  const named = NAMED[source];
  if (named) return named;
  if (!source.startsWith('{')) return source;
  try {
    const parsed = JSON.parse(source) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const record = parsed as Record<string, unknown>;
      if (typeof record.custom === 'string') return CUSTOM[record.custom.toLowerCase()] ?? record.custom;
      if ('subagent' in record) return subAgentLabel(record.subagent);
    }
  } catch {
    // Not JSON after all: shown as stored.
  }
  return source;
}
