// Where a proposal comes from, as plain data: Apply's fast CLI path checks it without loading zod. `agent`: an MCP
// client's memory_propose (the client's name and version are stored with it); `connect`: an agent's own configuration
// given the `memory-studio mcp` server (`mcp --install`, the app's Connect an agent).

export const proposalSources = [
  'edit',
  'note',
  'redaction',
  'forget',
  'consolidation',
  'import',
  'revert',
  'doctor',
  'agent',
  'connect',
] as const;
