// Query keys per channel; prefixes are what the event handlers invalidate.
import type { MemoryVersion } from '../../../shared/domain';

/**
 * File keys end with the Codex home, so switching homes (the demo) starts from fresh keys instead of
 * showing the previous home's files while refetching; invalidation uses the shorter prefixes.
 */
export const queryKeys = {
  appInfo: ['app.info'] as const,
  home: ['home.get'] as const,
  fileListsOf: (version: MemoryVersion) => ['workspace.list', version] as const,
  fileList: (version: MemoryVersion, codexHome: string) => ['workspace.list', version, codexHome] as const,
  filesOf: (version: MemoryVersion) => ['workspace.read', version] as const,
  fileAt: (version: MemoryVersion, path: string) => ['workspace.read', version, path] as const,
  file: (version: MemoryVersion, path: string, codexHome: string) => ['workspace.read', version, path, codexHome] as const,
};

/** Inspect and provenance channels whose answers depend on one root's files: a change there invalidates them. */
export const rootDerivedChannels = [
  'inspect.parse',
  'inspect.budget',
  'inspect.lint',
  'inspect.rollouts',
  'inspect.projects',
  'provenance.pointer',
  'provenance.citedBy',
  'provenance.neverCited',
  // The consolidation preview counts the root's notes, resources and hand edits.
  'consolidate.preview',
] as const;
export type RootDerivedChannel = (typeof rootDerivedChannels)[number];

/** Same scheme as the file keys: channel, version, arguments, then the home. */
export const inspectKeys = {
  ofRoot: (channel: RootDerivedChannel, version: MemoryVersion) => [channel, version] as const,
  parse: (version: MemoryVersion, path: string, codexHome: string) => ['inspect.parse', version, path, codexHome] as const,
  budget: (version: MemoryVersion, codexHome: string) => ['inspect.budget', version, codexHome] as const,
  lint: (version: MemoryVersion, path: string, codexHome: string) => ['inspect.lint', version, path, codexHome] as const,
  rollouts: (version: MemoryVersion, codexHome: string) => ['inspect.rollouts', version, codexHome] as const,
  projects: (version: MemoryVersion, codexHome: string) => ['inspect.projects', version, codexHome] as const,
  pointer: (version: MemoryVersion, file: string, hint: string, codexHome: string) =>
    ['provenance.pointer', version, file, hint, codexHome] as const,
  citedBy: (version: MemoryVersion, path: string, codexHome: string) => ['provenance.citedBy', version, path, codexHome] as const,
  neverCited: (version: MemoryVersion, codexHome: string) => ['provenance.neverCited', version, codexHome] as const,
  /** Codex's DBs are not watched: the health page refreshes on demand and when a root changes. */
  healthAll: ['inspect.health'] as const,
  health: (codexHome: string) => ['inspect.health', codexHome] as const,
  session: (threadId: string, codexHome: string) => ['provenance.session', threadId, codexHome] as const,
};
