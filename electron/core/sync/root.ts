// What every sync and export path needs before anything is read, kept free of schemas and scanners so an export loads
// only what it uses: the root Codex reads, a file's size limit, this machine's default name.
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';

/** One published file can be this big (the heavy demo home's MEMORY.md is 5.6 MB). */
export const SYNC_FILE_LIMIT_BYTES = 64 * 1024 * 1024;

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
