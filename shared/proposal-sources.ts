// Where a proposal comes from, as plain data: Apply's fast CLI path checks it without loading zod. `agent`: an MCP
// client's memory_propose (the client's name and version are stored with it).

export const proposalSources = ['edit', 'note', 'redaction', 'forget', 'consolidation', 'import', 'revert', 'doctor', 'agent'] as const;
