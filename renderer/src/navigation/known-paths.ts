// Sets of the paths each root holds, from the file lists already fetched, to tell links to missing files apart.
import { useCallback, useMemo } from 'react';
import type { FileList, HomeInfo, MemoryVersion } from '../../../shared/domain';

const cache = new WeakMap<FileList, ReadonlySet<string>>();

function pathsOf(list: FileList): ReadonlySet<string> {
  let paths = cache.get(list);
  if (!paths) {
    paths = new Set(list.files.map((file) => file.path));
    cache.set(list, paths);
  }
  return paths;
}

/** `(version) => Set` of root-relative paths, or null while that root is still listing (or absent). */
export function useKnownPaths(lists: ReadonlyArray<FileList | undefined>): (version: MemoryVersion) => ReadonlySet<string> | null {
  const byVersion = useMemo(() => {
    const map = new Map<MemoryVersion, ReadonlySet<string>>();
    for (const list of lists) if (list) map.set(list.version, pathsOf(list));
    return map;
  }, [lists]);
  return useCallback((version: MemoryVersion) => byVersion.get(version) ?? null, [byVersion]);
}

/** The version config.toml selects when its root exists, else the first present root; null without roots. */
export function preferredVersion(home: HomeInfo | undefined, versions: readonly MemoryVersion[]): MemoryVersion | null {
  const configured = home?.config.memories.version;
  if (configured && versions.includes(configured)) return configured;
  return versions[0] ?? null;
}
