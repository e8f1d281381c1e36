// Finds the Codex home, its SQLite home, its memory roots and its config, without changing anything.
import { lstat, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { HomeInfo, MemoryVersion, RootInfo } from '../../../shared/domain';
import { CONFIG_FILE, MEMORY_DB_FILES, ROOT_DIRS, STATE_DB_FILE } from './constants';
import { codexReadsOf } from './codex-reads';
import { readCodexConfig } from './config';

export { expandHome, resolveCodexHome, type HomeChoice } from './home-path';
import { expandHome, type HomeChoice } from './home-path';

export const memoryVersions: readonly MemoryVersion[] = ['v1', 'v2'];

/**
 * Where Codex keeps its SQLite files: `sqlite_home` in config.toml, else `CODEX_SQLITE_HOME`, else the Codex home.
 * Seen with Codex 0.169.0: the config key wins over the variable, `~/` is the user's home, a relative path is
 * taken from the Codex home (docs/spec-corrections.md).
 */
export function resolveSqliteHome(
  codexHome: string,
  env: NodeJS.ProcessEnv = process.env,
  configValue: string | null = null,
): { path: string; source: HomeInfo['sqliteHomeSource'] } {
  if (configValue !== null && configValue.trim() !== '') return { path: resolve(codexHome, expandHome(configValue)), source: 'config' };
  const value = env.CODEX_SQLITE_HOME;
  if (value && value.trim() !== '') return { path: resolve(expandHome(value)), source: 'env' };
  return { path: codexHome, source: 'codex-home' };
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function inspectRoot(codexHome: string, sqliteHome: string, version: MemoryVersion): Promise<RootInfo> {
  const path = join(codexHome, ROOT_DIRS[version]);
  const dbPath = join(sqliteHome, MEMORY_DB_FILES[version]);
  let exists = false;
  let isSymlink = false;
  try {
    const info = await lstat(path);
    isSymlink = info.isSymbolicLink();
    exists = info.isDirectory() || isSymlink;
  } catch {
    exists = false;
  }
  let hasGitBaseline = false;
  if (exists && !isSymlink) {
    try {
      hasGitBaseline = (await lstat(join(path, '.git'))).isDirectory();
    } catch {
      hasGitBaseline = false;
    }
  }
  return { version, path, exists, isSymlink, hasGitBaseline, dbPath, dbExists: await isFile(dbPath) };
}

export async function inspectHome(choice: HomeChoice, env: NodeJS.ProcessEnv = process.env, isDemo = false): Promise<HomeInfo> {
  const { codexHome } = choice;
  let exists = false;
  try {
    exists = (await stat(codexHome)).isDirectory();
  } catch {
    exists = false;
  }
  const config = await readCodexConfig(join(codexHome, CONFIG_FILE));
  const sqlite = resolveSqliteHome(codexHome, env, config.sqliteHome);
  const [roots, stateDbExists] = await Promise.all([
    Promise.all(memoryVersions.map((version) => inspectRoot(codexHome, sqlite.path, version))),
    isFile(join(sqlite.path, STATE_DB_FILE)),
  ]);
  return {
    codexHome,
    source: choice.source,
    exists,
    sqliteHome: sqlite.path,
    sqliteHomeSource: sqlite.source,
    stateDbExists,
    isDemo,
    roots,
    config,
    codexReads: codexReadsOf(config),
    returnHome: null,
  };
}
