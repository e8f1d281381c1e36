// Where Memory Studio keeps its own data: `--data-dir`, else `MEMORY_STUDIO_DATA`, else the platform's app-data folder.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { expandHome } from '../codex/home-path';

export const PRODUCT_NAME = 'Memory Studio';

/** Mirrors Electron's `app.getPath('userData')` so the CLI, serve host and app share one folder. */
export function platformDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
): string {
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', PRODUCT_NAME);
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), PRODUCT_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), PRODUCT_NAME);
}

/** `cwd`: the folder a relative path is the person's in (the keeper answers for a client in another folder). */
export function resolveDataDir(options: { flag?: string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): string {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  if (options.flag && options.flag.trim() !== '') return resolve(cwd, expandHome(options.flag));
  if (env.MEMORY_STUDIO_DATA && env.MEMORY_STUDIO_DATA.trim() !== '') return resolve(cwd, expandHome(env.MEMORY_STUDIO_DATA));
  return platformDataDir(process.platform, env);
}
