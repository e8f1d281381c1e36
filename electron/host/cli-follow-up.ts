// The next command the CLI prints, ready to paste: the way the README runs the CLI, the run's own --codex-home,
// --data-dir (and --version where the next command takes it), each word quoted for the shell when it needs it.
import { basename } from 'node:path';
import { cliCodexHome, cliEnv, cliPath } from './cli-io';

/** How the README runs the CLI from the checkout (README.md, "Command line"). */
export const README_PREFIX = 'npx --offline memory-studio';

/** `memory-studio` when the person runs a linked command (`npm link`), else the README's way. */
export function cliPrefix(): string {
  const linked = basename(process.argv[1] ?? '') === 'memory-studio' && cliEnv().npm_command !== 'exec';
  return linked ? 'memory-studio' : README_PREFIX;
}

/** A word as a POSIX shell reads it back: as is when it is plain, else in single quotes. */
export function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The options of a run that its follow-ups carry (those the person gave; a default is the same in the next run). */
export interface RunFlags {
  'codex-home'?: string;
  'data-dir'?: string;
  version?: string;
}

/**
 * `npx --offline memory-studio show p-1 --data-dir '/tmp/my data'`: `args` (the command and its own words) and the
 * run's flags, each quoted. `tail` is appended as is, for a placeholder the person fills in (`--project DIR`).
 */
export function followUp(args: readonly string[], run: RunFlags = {}, tail = ''): string {
  const words = [...args];
  if (run['codex-home'] !== undefined) words.push('--codex-home', cliCodexHome(run['codex-home']).codexHome);
  if (run['data-dir'] !== undefined) words.push('--data-dir', cliPath(run['data-dir']));
  if (run.version !== undefined) words.push('--version', run.version);
  return [cliPrefix(), ...words.map(shellQuote)].join(' ') + (tail ? ` ${tail}` : '');
}

/** The data folder of a run only: for `proposals`, which lists the proposals of every home. */
export const dataOnly = (values: RunFlags): RunFlags => ({ 'data-dir': values['data-dir'] });

/**
 * The home and data folder of a run, for `show` and `apply` of a proposal it made: a proposal of files takes its home
 * from them, but one that changes only Codex's DB or an agent's config needs the run's (the same home is never refused).
 */
export const proposalFlags = (values: RunFlags): RunFlags => ({ 'codex-home': values['codex-home'], 'data-dir': values['data-dir'] });
