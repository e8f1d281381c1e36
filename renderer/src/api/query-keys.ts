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
