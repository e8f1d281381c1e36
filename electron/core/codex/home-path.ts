// Which folder is the Codex home, from the flag, the environment and the user's home alone: Node built-ins only, so
// the CLI's keeper client can find a home's keeper before it loads anything else.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { HomeInfo } from '../../../shared/domain';

export interface HomeChoice {
  codexHome: string;
  source: HomeInfo['source'];
}

/** Expands a leading `~` the way a shell would, since the value may come from a config or a GUI field. */
export function expandHome(path: string, home = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(home, path.slice(2));
  return path;
}

/** `--codex-home`, else `CODEX_HOME`, else `~/.codex` (Codex's own order). */
export function resolveCodexHome(options: { flag?: string; env?: NodeJS.ProcessEnv; homedir?: string; cwd?: string } = {}): HomeChoice {
  const env = options.env ?? process.env;
  const home = options.homedir ?? homedir();
  // A relative path is the person's folder's (a keeper answers for a client in another folder: `cwd` is theirs).
  const cwd = options.cwd ?? process.cwd();
  if (options.flag && options.flag.trim() !== '') return { codexHome: resolve(cwd, expandHome(options.flag, home)), source: 'flag' };
  const fromEnv = env.CODEX_HOME;
  if (fromEnv && fromEnv.trim() !== '') return { codexHome: resolve(cwd, expandHome(fromEnv, home)), source: 'env' };
  return { codexHome: join(home, '.codex'), source: 'default' };
}
