// What every sync and export path needs before anything is read, kept free of schemas and scanners so an export loads
// only what it uses: the root Codex reads, the size limits of a file and of a bundle, this machine's default name.
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';

/** One published file can be this big (the heavy demo home's MEMORY.md is 5.6 MB). */
export const SYNC_FILE_LIMIT_BYTES = 64 * 1024 * 1024;

/** The bundle manifest's format tag: a reader refuses any other. */
export const BUNDLE_FORMAT = 'memory-studio-bundle/1';
/** One member, all members together, and how many: past any of these a bundle is refused (an export holds back). */
export const BUNDLE_MEMBER_LIMIT_BYTES = SYNC_FILE_LIMIT_BYTES;
export const BUNDLE_TOTAL_LIMIT_BYTES = 1024 * 1024 * 1024;
export const BUNDLE_MEMBER_COUNT_LIMIT = 100_000;

/** The root Codex reads in this home (`memories.version`), or `pick`'s. */
export function readRoot(home: HomeInfo, pick?: MemoryVersion): { version: MemoryVersion; path: string; exists: boolean } {
  const version = pick ?? home.config.memories.version;
  const root = home.roots.find((r) => r.version === version);
  return {
    version,
    path: root?.path ?? join(home.codexHome, version === 'v1' ? 'memories' : 'memories_v2'),
    exists: root?.exists ?? false,
  };
}

/** This machine's default name: its host name, made a safe folder name. */
export function defaultMachineName(): string {
  const cleaned = hostname()
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/\.\.+/g, '.')
    .slice(0, 63);
  return cleaned === '' ? 'machine' : cleaned;
}
