// The first screen of a home: the summary of the root Codex reads, decided before anything else is offered.
import { useEffect, useRef } from 'react';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { RootSection } from '../sidebar/tree-model';

export type FirstFile = { version: MemoryVersion; path: string } | null | 'wait';

/**
 * The summary to open first: the one of the root Codex reads (config.toml's version, else Codex's default) when that root
 * exists, else of the first root that has one. `wait` while the root that decides it is still listing: offering another
 * root's summary meanwhile would show the wrong root first and then switch.
 */
export function firstFileOf(home: HomeInfo | undefined, sections: readonly Pick<RootSection, 'root' | 'list' | 'status'>[]): FirstFile {
  if (!home) return 'wait';
  const read = sections.find((section) => section.root.version === home.codexReads.version);
  const ordered = read ? [read, ...sections.filter((section) => section !== read)] : sections;
  for (const section of ordered) {
    if (section.status === 'loading') return 'wait';
    const file = section.list?.files.find((entry) => entry.kind === 'summary');
    if (file) return { version: section.root.version, path: file.path };
  }
  return null;
}

/** Opens the first file once per home, as soon as it is decided; true while it is not decided yet. */
export function useOpenFirstFile(
  home: HomeInfo | undefined,
  first: FirstFile,
  hasLocation: boolean,
  openFile: (version: MemoryVersion, path: string) => void,
): boolean {
  const opened = useRef<string | null>(null);
  const done = home !== undefined && opened.current === home.codexHome;
  useEffect(() => {
    if (!home || first === 'wait' || opened.current === home.codexHome) return;
    opened.current = home.codexHome;
    if (first && !hasLocation) openFile(first.version, first.path);
  }, [home, first, hasLocation, openFile]);
  return !done && first === 'wait' && !hasLocation;
}
