// What discovery hands the planner: source projects with their read files, the homes looked at, and what was skipped.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CwdSource, DetectedProject, ImportFileKind, ImportSource, SkippedEntry, SourceHome } from '../../../shared/import';
import { expandHome } from '../codex/home';
import type { WalkBudget } from './read-source';

export interface SourceFile {
  relPath: string;
  sourcePath: string;
  size: number;
  mtimeMs: number;
  sha256: string;
  text: string;
  kind: ImportFileKind;
}

export interface SourceProject {
  key: string;
  cwd: string | null;
  cwdSource: CwdSource;
  /** No cwd: the newest one a session records, which is not a folder on this machine (moved, or another machine's). */
  goneCwd?: string | null;
  sourceDir: string;
  origin: DetectedProject['origin'];
  files: SourceFile[];
  skippedCount: number;
}

export interface Discovery {
  from: ImportSource;
  homes: SourceHome[];
  projects: SourceProject[];
  skipped: SkippedEntry[];
  messages: string[];
  /** The keys the picked repositories map to (their own autoMemoryDirectory, their Cursor rules), found or not. */
  pickedKeys: string[];
  /**
   * Where this run reads from, as real paths: the tool's home, each picked repository, Cursor's state.vscdb. An earlier
   * import recorded with one of these as its source home is this source's own; any other is left alone.
   */
  sourceHomes: string[];
}

/** The source home a project is read from: its repository, Cursor's state.vscdb, or the tool's home. */
export function sourceHomeOf(project: Pick<SourceProject, 'origin' | 'cwd' | 'sourceDir'>, home: string): string {
  if (project.origin === 'repo-setting' || project.origin === 'cursor-rules') return project.cwd ?? project.sourceDir;
  if (project.origin === 'cursor-user-rules') return resolve(project.sourceDir);
  return home;
}

export interface DiscoveryDeps {
  env: NodeJS.ProcessEnv;
  /** How far this discovery may list folders (depth, entries, time), shared by all its walks. */
  walk: WalkBudget;
  /** Claude's managed settings folder (`/etc/claude-code` on Linux). */
  managedSettingsDir: string;
  platform: NodeJS.Platform;
}

export function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME && env.HOME.trim() !== '' ? env.HOME : homedir();
}

/** The picked folder, else `envVar`, else `~/<defaultName>`. */
export function resolveSourceHome(
  picked: string | undefined,
  env: NodeJS.ProcessEnv,
  envVar: string | null,
  defaultName: string,
): SourceHome & { exists: false } {
  const home = userHome(env);
  if (picked) return { path: resolve(expandHome(picked, home)), exists: false, origin: 'picked' };
  const fromEnv = envVar ? env[envVar] : undefined;
  if (fromEnv && fromEnv.trim() !== '') return { path: resolve(expandHome(fromEnv, home)), exists: false, origin: 'env' };
  return { path: join(home, defaultName), exists: false, origin: 'default' };
}

/** Claude's managed settings folder on this platform (docs/codex-facts.md, Claude Code import). */
export function defaultManagedSettingsDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  if (platform === 'darwin') return '/Library/Application Support/ClaudeCode';
  if (platform === 'win32') return join(env.ProgramFiles ?? 'C:\\Program Files', 'ClaudeCode');
  return '/etc/claude-code';
}

/** Cursor's global `state.vscdb` on this platform (docs/codex-facts.md, Claude Code and Cursor on disk). */
export function defaultCursorStateDb(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string {
  const home = userHome(env);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Cursor', 'User', 'globalStorage', 'state.vscdb');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Cursor', 'User', 'globalStorage', 'state.vscdb');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Cursor', 'User', 'globalStorage', 'state.vscdb');
}

/** Sorts files by (relative path, source path) and projects by key, as Codex orders (project_key, relative_path, source_path). */
export function sortDiscovery(projects: SourceProject[]): SourceProject[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  for (const p of projects) p.files.sort((a, b) => cmp(a.relPath, b.relPath) || cmp(a.sourcePath, b.sourcePath));
  return projects.sort((a, b) => cmp(a.key, b.key));
}
