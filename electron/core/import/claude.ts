// Discovery of Claude Code memory: `<claude_home>/projects/<dir>/memory/**/*.md` and custom `autoMemoryDirectory` folders.
import { appendAll } from '../platform/append';
import { createHash } from 'node:crypto';
import { readdir, realpath } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { SkippedEntry } from '../../../shared/import';
import { readMemoryDir } from './memory-dir';
import { claudeEncodePath, projectKeyProblem } from './names';
import { pathKind, skip, type WalkBudget } from './read-source';
import { sessionCwdInfo } from './session-cwd';
import { customMemoryDirs } from './settings';
import { sortDiscovery, userHome, type Discovery, type DiscoveryDeps, type SourceProject } from './sources';

export const CUSTOM_KEY = '_custom';

/** Shown beside project keys: why a folder name is not decoded into a path. */
export const KEY_ENCODING_NOTE =
  'A Claude Code project key is the folder name under projects/: Claude Code replaces every character outside A-Z, a-z and 0-9 ' +
  'of the project path with "-" (long paths get a hash), so "/home/me/my_app" and "/home/me/my.app" give the same name. ' +
  'The key is never decoded: the project folder is read from the newest session file that records a cwd; check it, and correct it if needed.';

export const REPO_SETTING_KEY_PREFIX = 'project-';

/** The folder name for a repo's own `autoMemoryDirectory` (Codex's key `project:<repo_root>` holds separators, so it cannot name a folder). */
export function repoSettingKey(repo: string): string {
  const encoded = claudeEncodePath(repo);
  const key = `${REPO_SETTING_KEY_PREFIX}${encoded}`;
  return key.length <= 200 ? key : `${key.slice(0, 200)}-${createHash('sha256').update(repo).digest('hex').slice(0, 8)}`;
}

async function projectFromDir(
  key: string,
  memoryDir: string,
  base: Omit<SourceProject, 'files' | 'skippedCount' | 'sourceDir' | 'key'>,
  skipped: SkippedEntry[],
  budget: WalkBudget,
): Promise<SourceProject> {
  const read = await readMemoryDir(memoryDir, key, budget);
  appendAll(skipped, read.skipped);
  return { ...base, key, sourceDir: memoryDir, files: read.files, skippedCount: read.skipped.length };
}

/** `projects/*` folders with a `memory/` folder; the key is the folder name, refused when it could escape the target. */
async function defaultProjects(
  claudeHome: string,
  skipped: SkippedEntry[],
  seen: Set<string>,
  budget: WalkBudget,
): Promise<SourceProject[]> {
  const projectsDir = join(claudeHome, 'projects');
  const entries = await readdir(projectsDir, { withFileTypes: true }).catch(() => []);
  budget.spend(entries.length, projectsDir, projectsDir);
  const out: SourceProject[] = [];
  for (const entry of entries) {
    const dir = join(projectsDir, entry.name);
    if (entry.isSymbolicLink()) {
      skipped.push(skip(dir, 'symlink', `${dir} is a symlink; imports never follow symlinks.`, entry.name));
      continue;
    }
    if (!entry.isDirectory()) continue;
    const memoryDir = join(dir, 'memory');
    const kind = await pathKind(memoryDir);
    if (kind === 'missing') continue;
    if (kind === 'symlink') {
      skipped.push(skip(memoryDir, 'symlink', `${memoryDir} is a symlink; imports never follow symlinks.`, entry.name));
      continue;
    }
    if (kind !== 'dir') continue;
    const problem = projectKeyProblem(entry.name);
    if (problem) {
      skipped.push(skip(dir, 'unsafe-name', `The project folder "${entry.name}" cannot be a target folder name: ${problem}.`, entry.name));
      continue;
    }
    seen.add(await realpath(memoryDir).catch(() => memoryDir));
    const { cwd, gone, unread } = await sessionCwdInfo(dir);
    for (const u of unread) skipped.push(skip(u.path, 'unreadable', u.reason, entry.name));
    out.push({
      ...(await projectFromDir(entry.name, memoryDir, { cwd, cwdSource: cwd ? 'session' : 'none', origin: 'projects' }, skipped, budget)),
      goneCwd: gone,
    });
  }
  return out;
}

/** Custom `autoMemoryDirectory` folders, each real folder once (a folder already read as a project is not read again). */
async function customProjects(
  claudeHome: string,
  repos: readonly string[],
  deps: DiscoveryDeps,
  skipped: SkippedEntry[],
  seen: Set<string>,
): Promise<SourceProject[]> {
  const out: SourceProject[] = [];
  const customs = await customMemoryDirs(claudeHome, repos, deps.managedSettingsDir, userHome(deps.env), skipped);
  for (const custom of customs) {
    const key = custom.level === 'repo' && custom.repo ? repoSettingKey(custom.repo) : CUSTOM_KEY;
    const kind = await pathKind(custom.dir);
    if (kind !== 'dir') {
      const code = kind === 'symlink' ? 'symlink' : 'missing';
      skipped.push(
        skip(
          custom.dir,
          code,
          `autoMemoryDirectory ${custom.dir} (from ${custom.settingsFile}) ${kind === 'symlink' ? 'is a symlink, which imports never follow' : 'is not a folder'}.`,
          key,
        ),
      );
      continue;
    }
    const real = await realpath(custom.dir);
    if (seen.has(real)) {
      skipped.push(
        skip(
          custom.dir,
          'duplicate-root',
          `autoMemoryDirectory ${custom.dir} is a folder already imported under another key; each memory folder is read once.`,
          key,
        ),
      );
      continue;
    }
    seen.add(real);
    const cwd = custom.repo ? await realpath(custom.repo).catch(() => custom.repo) : null;
    out.push(
      await projectFromDir(
        key,
        custom.dir,
        { cwd, cwdSource: cwd ? 'settings' : 'none', origin: custom.level === 'repo' ? 'repo-setting' : 'custom-setting' },
        skipped,
        deps.walk,
      ),
    );
  }
  return out;
}

/** The chosen home as a real folder (a symlinked `~/.claude`, common with dotfiles, is resolved once here), or null. */
export async function realHome(path: string): Promise<string | null> {
  const real = await realpath(path).catch(() => null);
  return real !== null && (await pathKind(real)) === 'dir' ? real : null;
}

export async function discoverClaude(
  sourceHome: Discovery['homes'][number],
  repos: readonly string[],
  deps: DiscoveryDeps,
): Promise<Discovery> {
  const skipped: SkippedEntry[] = [];
  const messages: string[] = [];
  const root = await realHome(sourceHome.path);
  const home = { ...sourceHome, exists: root !== null };
  if (!root) messages.push(`No Claude Code home at ${sourceHome.path}; pick the folder (or set CLAUDE_CONFIG_DIR).`);
  const seen = new Set<string>();
  const projects = root ? await defaultProjects(root, skipped, seen, deps.walk) : [];
  projects.push(
    ...(await customProjects(
      root ?? sourceHome.path,
      repos.map((r) => resolve(r)),
      deps,
      skipped,
      seen,
    )),
  );
  if (root && projects.length === 0)
    messages.push(`${sourceHome.path} has no projects/*/memory folder: Claude Code's auto memory has not written anything yet.`);
  const pickedKeys = repos.map((r) => repoSettingKey(resolve(r)));
  const sourceHomes = [
    root ?? resolve(sourceHome.path),
    ...(await Promise.all(repos.map((r) => realpath(resolve(r)).catch(() => resolve(r))))),
  ];
  return { from: 'claude', homes: [home], projects: sortDiscovery(projects), skipped, messages, pickedKeys, sourceHomes };
}
