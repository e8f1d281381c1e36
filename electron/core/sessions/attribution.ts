// Ties each scanned citation to a memory root (v1 or v2) and a root-relative path, since citation blocks do not name the root.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileKind, HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { VersionBasis } from '../../../shared/provenance';
import type { MemoryCitationEntry, SessionCitation } from '../../../shared/sessions';
import { ROOT_DIRS } from '../codex/constants';
import { isSafeRelativePath } from '../platform/safe-path';
import { classifyPath } from '../codex/workspace';
import { canonicalThreadId } from './citations';
import type { SessionScan } from './session-scan';

export interface AttributedEntry {
  version: MemoryVersion;
  basis: VersionBasis;
  /** Root-relative path as used for grouping (a root prefix, if cited, is removed). */
  path: string;
  kind: FileKind;
  pathValid: boolean;
  entry: MemoryCitationEntry;
}

export interface AttributedBlock {
  scan: SessionScan;
  citation: SessionCitation;
  /** The root the block's first entry belongs to; for id-only blocks the session's hint or the configured version. */
  version: MemoryVersion;
  entries: AttributedEntry[];
  /** Valid thread ids only, canonical form (what Codex counts in record_stage1_output_usage). */
  threadIds: string[];
}

const V1_ONLY: ReadonlySet<FileKind> = new Set<FileKind>(['memory', 'raw-memories', 'skill', 'skill-file']);

function rootPath(home: HomeInfo, version: MemoryVersion): string {
  return home.roots.find((r) => r.version === version)?.path ?? join(home.codexHome, ROOT_DIRS[version]);
}

/** Strips a root named in the cited path itself: an absolute root path, `~/.codex/<root>/` or `<root>/`. */
export function stripRootPrefix(home: HomeInfo, cited: string): { path: string; version: MemoryVersion | null } {
  for (const version of ['v2', 'v1'] as const) {
    const dir = ROOT_DIRS[version];
    for (const prefix of [`${rootPath(home, version)}/`, `~/.codex/${dir}/`, `${dir}/`]) {
      if (cited.startsWith(prefix)) return { path: cited.slice(prefix.length), version };
    }
  }
  return { path: cited, version: null };
}

/** Resolves versions for many citations while touching the disk once per distinct (root, path). */
export class Attributor {
  private readonly existence = new Map<string, Promise<boolean>>();

  /** `listed`: whether a root's listing holds a regular file at `path` (the index's walk), instead of an lstat each. */
  constructor(
    private readonly home: HomeInfo,
    private readonly listed?: (version: MemoryVersion, path: string) => boolean,
  ) {}

  private exists(version: MemoryVersion, path: string): Promise<boolean> {
    const key = `${version}\0${path}`;
    let found = this.existence.get(key);
    if (!found && this.listed) this.existence.set(key, (found = Promise.resolve(this.listed(version, path))));
    if (!found) {
      const root = this.home.roots.find((r) => r.version === version);
      found =
        !root?.exists || root.isSymlink
          ? Promise.resolve(false)
          : lstat(join(root.path, ...path.split('/'))).then(
              (s) => s.isFile(),
              () => false,
            );
      this.existence.set(key, found);
    }
    return found;
  }

  async entry(entry: MemoryCitationEntry, hint: MemoryVersion | null): Promise<AttributedEntry> {
    const stripped = stripRootPrefix(this.home, entry.path);
    const path = stripped.path;
    const pathValid = isSafeRelativePath(path);
    const kind: FileKind = pathValid ? classifyPath(path) : 'unknown';
    const base = { path, kind, pathValid, entry };
    if (stripped.version) return { ...base, version: stripped.version, basis: 'path-prefix' };
    if (hint) return { ...base, version: hint, basis: 'session-base-path' };
    if (pathValid) {
      const [inV1, inV2] = await Promise.all([this.exists('v1', path), this.exists('v2', path)]);
      if (inV1 !== inV2) return { ...base, version: inV1 ? 'v1' : 'v2', basis: 'exists-in-one-root' };
    }
    if (V1_ONLY.has(kind)) return { ...base, version: 'v1', basis: 'v1-only-kind' };
    return { ...base, version: this.home.config.memories.version, basis: 'configured-version' };
  }

  async block(scan: SessionScan, citation: SessionCitation): Promise<AttributedBlock> {
    const entries = await Promise.all(citation.entries.map((e) => this.entry(e, scan.versionHint)));
    const version = entries[0]?.version ?? scan.versionHint ?? this.home.config.memories.version;
    // Not de-duplicated again after canonicalising: Codex counts each parsed id once per block, as written.
    const threadIds = citation.threadIds.map(canonicalThreadId).filter((id): id is string => id !== null);
    return { scan, citation, version, entries, threadIds };
  }
}

/** Every citation block of every scan, attributed. */
export async function attributeAll(
  home: HomeInfo,
  scans: readonly SessionScan[],
  listed?: (version: MemoryVersion, path: string) => boolean,
): Promise<AttributedBlock[]> {
  const attributor = new Attributor(home, listed);
  const blocks: Array<Promise<AttributedBlock>> = [];
  for (const scan of scans) for (const citation of scan.citations) blocks.push(attributor.block(scan, citation));
  return Promise.all(blocks);
}
