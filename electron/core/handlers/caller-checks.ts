// The checks on a path a page names: a promotion's project folder, a doctor run's projects, an import's source home,
// Cursor DB and repositories.
import { isAbsolute, join } from 'node:path';
import type { HomeInfo } from '../../../shared/domain';
import type { ImportSourceOptions } from '../../../shared/import';
import { knownProjectDirs } from '../codex-db/known-projects';
import { defaultCursorStateDb, resolveSourceHome, userHome } from '../import/sources';
import { StudioFailure } from '../platform/errors';
import { realPathOf } from '../platform/real-path';
import type { CallerPaths } from './caller-paths';

/**
 * A project folder a page asks to promote into must be one Codex knows (a thread ran there, or a memory entry applies
 * to it) or one the person chose in main's folder dialog; the entry's own folder is known by definition.
 */
export async function allowProjectFolder(paths: CallerPaths, home: HomeInfo, project: string | undefined): Promise<void> {
  if (project === undefined) return;
  await allowFolders(paths, home, [project], {
    does: 'write its AGENTS.md',
    hint: 'In the app, pick the folder with Choose…; with serve, promote from the command line: memory-studio promote ENTRY_ID --project DIR.',
  });
}

/** A page-named path must be absolute: a relative one would be resolved against the host's own working folder. */
function requireAbsolute(path: string, hint: string): void {
  if (!isAbsolute(path))
    throw new StudioFailure('Invalid', `${path} is not an absolute path; Memory Studio does not guess where a page means.`, { path, hint });
}

/** Each folder chosen for `project` in main's dialog, or one Codex knows (the known set read once for all of them). */
async function allowFolders(
  paths: CallerPaths,
  home: HomeInfo,
  folders: readonly string[],
  words: { does: string; hint: string },
): Promise<void> {
  if (paths.from === 'person') return;
  const open = folders.filter((folder) => !paths.chosen('project', folder));
  if (open.length === 0) return;
  for (const folder of open) requireAbsolute(folder, words.hint);
  const known = await knownProjectDirs(home);
  const refused = open.find((folder) => !known.has(realPathOf(folder)));
  if (refused === undefined) return;
  throw new StudioFailure(
    'Invalid',
    `${refused} is not a project Codex knows (no Codex session ran there and no memory entry applies to it), and it was not chosen in a folder dialog; Memory Studio does not ${words.does} for a request from the page.`,
    { path: refused, hint: words.hint },
  );
}

/**
 * The project folders a doctor run (and its explain and model merge) reads when a page names them (the `AGENTS.md` and
 * `CLAUDE.md` files from the folder's git root down to it): each one Codex knows or one the person chose.
 */
export async function allowProjectFolders(paths: CallerPaths, home: HomeInfo, projects: readonly string[] | undefined): Promise<void> {
  await allowFolders(paths, home, projects ?? [], {
    does: 'read its AGENTS.md or CLAUDE.md files',
    hint: 'In the app, pick the folder with Choose…; with serve, run the doctor from the command line: memory-studio doctor --project DIR.',
  });
}

/** The homes this host detects for `from`: `$CLAUDE_CONFIG_DIR` and `~/.claude`, or `~/.cursor`. */
function detectedHomes(from: ImportSourceOptions['from'], env: NodeJS.ProcessEnv): string[] {
  if (from === 'cursor') return [join(userHome(env), '.cursor')];
  return [resolveSourceHome(undefined, env, 'CLAUDE_CONFIG_DIR', '.claude').path, join(userHome(env), '.claude')];
}

/**
 * An import's source home and Cursor DB named by a page: the detected ones, or chosen in main's dialog, or named when
 * serve started (`--import-source DIR`); a crafted `sourceHome` would read Markdown files outside every memory root.
 */
export async function allowImportSource(
  paths: CallerPaths,
  home: HomeInfo,
  input: ImportSourceOptions,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  if (paths.from === 'person') return;
  const hint =
    'In the app, pick it with Choose…; with serve, name it when starting (memory-studio serve --import-source DIR, or set CLAUDE_CONFIG_DIR), or import from the command line (memory-studio import --source-home DIR).';
  await allowRepos(paths, home, input.repos ?? []);
  if (input.sourceHome !== undefined) {
    const detected = detectedHomes(input.from, env);
    const real = realPathOf(input.sourceHome);
    if (!detected.some((d) => realPathOf(d) === real) && !paths.chosen('import-source', input.sourceHome))
      throw new StudioFailure(
        'Invalid',
        `${input.sourceHome} is not the detected ${input.from === 'cursor' ? 'Cursor' : 'Claude Code'} home (${detected.join(' or ')}) and was not chosen in a folder dialog; Memory Studio does not read it for a request from the page.`,
        { path: input.sourceHome, hint },
      );
  }
  const db = input.cursorStateDb;
  if (db !== undefined && realPathOf(db) !== realPathOf(defaultCursorStateDb(process.platform, env))) {
    if (!paths.chosen('cursor-db', db) && !paths.chosen('import-source', db))
      throw new StudioFailure(
        'Invalid',
        `${db} is not Cursor's usual state.vscdb and was not chosen in a file dialog; Memory Studio does not open it for a request from the page.`,
        { path: db, hint },
      );
  }
}

/**
 * The repositories an import looks in (Claude's per-repo settings, Cursor's project rules), named by a page: each a
 * project Codex knows, one chosen in main's dialog, or inside an import source; never a folder the page names alone.
 */
async function allowRepos(paths: CallerPaths, home: HomeInfo, repos: readonly string[]): Promise<void> {
  const hint =
    'In the app, add it with Choose…; with serve, name a folder holding it when starting (memory-studio serve --import-source DIR), or import from the command line (memory-studio import --repo DIR).';
  for (const repo of repos) requireAbsolute(repo, hint);
  const open = repos.filter((repo) => !paths.chosen('repo', repo) && !paths.chosen('import-source', repo));
  if (open.length === 0) return;
  const known = await knownProjectDirs(home);
  const refused = open.find((repo) => !known.has(realPathOf(repo)));
  if (refused === undefined) return;
  throw new StudioFailure(
    'Invalid',
    `${refused} is not a project Codex knows (no Codex session ran there and no memory entry applies to it), was not chosen in a folder dialog, and is not inside an import source; Memory Studio does not read it for a request from the page.`,
    { path: refused, hint },
  );
}
