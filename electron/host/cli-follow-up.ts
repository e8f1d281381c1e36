// The next command the CLI prints, ready to paste: the way the README runs the CLI, the run's own --codex-home,
// --data-dir (and --version where the next command takes it), each word quoted for the shell when it needs it.
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { cliCwd, cliCodexHome, cliEnv, cliPath, requestIo } from './cli-io';

/** The README's way to run the CLI from the checkout (README.md, "Command line"): this file, run as a program. */
const ROOT = checkoutRoot();
export const README_BIN = join(ROOT, 'bin', 'memory-studio');

/** The checkout: two folders up from electron/host/, three from the build's out/electron/host/. */
function checkoutRoot(): string {
  const up = join(__dirname, '..', '..');
  return basename(up) === 'out' ? join(up, '..') : up;
}

/** The README's command as typed in `cwd`: `bin/memory-studio` in the checkout, else its whole path (`node …` on Windows). */
export function readmeCommand(cwd: string, platform: NodeJS.Platform = process.platform): string {
  const rel = relative(cwd, README_BIN);
  const path = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : README_BIN;
  return platform === 'win32' ? `node ${shellQuote(path)}` : shellQuote(path);
}

/**
 * How this run was started, for the commands it prints: through a `memory-studio` outside the checkout, `npx --offline
 * memory-studio` under npx (npx runs it from its cache) or `memory-studio` (the link `npm link` put on PATH); else the
 * README's `bin/memory-studio` (from any other folder, its whole path). A command the keeper answers uses the prefix
 * its client sent.
 */
export function cliPrefix(): string {
  const sent = requestIo()?.prefix;
  if (sent) return sent;
  const script = resolve(process.argv[1] ?? '');
  const rel = relative(ROOT, script);
  // Started through a path outside the checkout (npx's cache, the link `npm link` made): npx, or a command on PATH.
  if ((rel.startsWith('..') || isAbsolute(rel)) && basename(script) === 'memory-studio')
    return cliEnv().npm_command === 'exec' ? 'npx --offline memory-studio' : 'memory-studio';
  return readmeCommand(cliCwd());
}

/** A hint written in core ("run memory-studio sync status") with the way this run was started, so it can be pasted. */
export function withCliPrefix(text: string): string {
  const prefix = cliPrefix();
  return prefix === 'memory-studio' ? text : text.replace(/(?<![\w/.-]|--offline )memory-studio (?=[a-z-])/g, `${prefix} `);
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
