// The kinds of file a memory root holds, as plain data: code on a CLI's fast path reads them without loading zod.

/** Every kind of file a memory root can hold (docs/codex-facts.md, Memory root layout). */
export const fileKinds = [
  'summary',
  'memory',
  'raw-memories',
  'rollout-summary',
  'skill',
  'skill-file',
  'ad-hoc-note',
  'extension-instructions',
  'extension-resource',
  'extension-manifest',
  'extension-scope',
  'workspace-diff',
  'unknown',
] as const;
