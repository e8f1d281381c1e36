// Ties a path cited in a session (`MEMORY.md`, `memories_v2/…`, an absolute path) to a root and a root-relative path.
import type { MemoryVersion } from '../../../shared/domain';

export interface CitedTarget {
  version: MemoryVersion;
  path: string;
}

const rootFolders: ReadonlyArray<[string, MemoryVersion]> = [
  ['memories_v2/', 'v2'],
  ['memories/', 'v1'],
];

/**
 * A prefix naming the root wins; otherwise the root that holds the file, the preferred (configured) version first.
 * Null when no root has it: the citation is shown, but not as a link.
 */
export function resolveCitedPath(
  cited: string,
  preferred: MemoryVersion,
  knownPaths: (version: MemoryVersion) => ReadonlySet<string> | null,
): CitedTarget | null {
  const normalized = cited.replace(/\\/g, '/');
  for (const [folder, version] of rootFolders) {
    if (normalized.startsWith(folder)) return { version, path: normalized.slice(folder.length) };
    const at = normalized.indexOf(`/${folder}`);
    if (at >= 0) return { version, path: normalized.slice(at + folder.length + 1) };
  }
  if (normalized.startsWith('/')) return null;
  const order: MemoryVersion[] = preferred === 'v1' ? ['v1', 'v2'] : ['v2', 'v1'];
  for (const version of order) if (knownPaths(version)?.has(normalized)) return { version, path: normalized };
  return null;
}
