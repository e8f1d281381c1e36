// Where a proposal comes from, as plain data: Apply's fast CLI path checks it without loading zod.

export const proposalSources = ['edit', 'note', 'redaction', 'forget', 'consolidation', 'import', 'revert', 'doctor'] as const;
