// Where each path a session cites is in this home, for the session view's links: the root the path names by its folder,
// else the root that holds the file (the one config.toml selects first), else nowhere.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { CitedTarget, SessionReading, SessionRollout } from '../../../shared/sessions';
import { ROOT_DIRS } from '../codex/constants';
import { isSafeRelativePath } from '../platform/safe-path';

/**
 * The root a cited path names by its folder, and the path inside it: `memories_v2/…` or `memories/…` at the start, or
 * through any path that passes one (`~/.codex/memories/…`, this home's or another machine's absolute root).
 */
function namedRoot(cited: string): CitedTarget | null {
  for (const version of ['v2', 'v1'] as const) {
    const folder = `${ROOT_DIRS[version]}/`;
    if (cited.startsWith(folder)) return { version, path: cited.slice(folder.length) };
    const at = cited.indexOf(`/${folder}`);
    if (at >= 0) return { version, path: cited.slice(at + folder.length + 1) };
  }
  return null;
}

/** The roots to look in for a bare path: the version config.toml selects when its root exists, else the first present. */
function lookupOrder(home: HomeInfo): MemoryVersion[] {
  const present = home.roots.filter((root) => root.exists).map((root) => root.version);
  const configured = home.config.memories.version;
  const preferred = present.includes(configured) ? configured : (present[0] ?? 'v1');
  return preferred === 'v1' ? ['v1', 'v2'] : ['v2', 'v1'];
}

async function holds(home: HomeInfo, version: MemoryVersion, path: string): Promise<boolean> {
  const root = home.roots.find((r) => r.version === version);
  if (!root?.exists || root.isSymlink) return false;
  return lstat(join(root.path, ...path.split('/'))).then(
    (info) => info.isFile(),
    () => false,
  );
}

/** One cited path: the root it names (even when the file is gone: the link says what was cited), else the root that has it. */
export async function citedTarget(home: HomeInfo, cited: string): Promise<CitedTarget | null> {
  const normalized = cited.replace(/\\/g, '/');
  const named = namedRoot(normalized);
  if (named) return isSafeRelativePath(named.path) ? named : null;
  if (!isSafeRelativePath(normalized)) return null;
  for (const version of lookupOrder(home)) if (await holds(home, version, normalized)) return { version, path: normalized };
  return null;
}

/** The session with every citation entry's target, each distinct path resolved once. */
export async function resolveCitations(home: HomeInfo, session: SessionRollout): Promise<SessionReading> {
  const targets = new Map<string, Promise<CitedTarget | null>>();
  const targetOf = (cited: string) => {
    let found = targets.get(cited);
    if (!found) targets.set(cited, (found = citedTarget(home, cited)));
    return found;
  };
  const citations = await Promise.all(
    session.citations.map(async (citation) => ({
      ...citation,
      entries: await Promise.all(citation.entries.map(async (entry) => ({ ...entry, target: await targetOf(entry.path) }))),
    })),
  );
  return { ...session, citations };
}
