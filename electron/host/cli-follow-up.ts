// The next command the CLI prints, ready to paste: the way the README runs the CLI, the run's own --codex-home,
// --data-dir (and --version where the next command takes it), each word quoted for the shell when it needs it.
import { lstatSync, realpathSync } from 'node:fs';
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

/**
 * The README's command as typed in `cwd` (`script`, the path it was started by, else the checkout's): relative when it
 * lies below `cwd` (`bin/memory-studio`, `./memory-studio`), else its whole path; `node "…"` on Windows.
 */
export function readmeCommand(cwd: string, platform: NodeJS.Platform = process.platform, script = README_BIN): string {
  // Compared as real paths: Node's folder is the real one, the script may be reached through a linked folder.
  const rel = relative(realOrSelf(cwd), realOrSelf(script));
  const below = rel && !rel.startsWith('..') && !isAbsolute(rel);
  const path = !below ? script : /[\\/]/.test(rel) ? rel : `./${rel}`;
  if (platform !== 'win32') return shellQuote(path);
  const forward = path.replace(/\\/g, '/');
  return /^[\w@%+=:,./-]+$/.test(forward) ? `node ${forward}` : `node "${forward}"`;
}

/** Whether `path` is itself a symbolic link (npx's cache and `npm link` start the command through one). */
function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * How this run was started, for the commands it prints: through a link named `memory-studio` (npx's cache, or the one
 * `npm link` put on PATH), `npx --offline memory-studio` under npx, else `memory-studio`; through the checkout's
 * bin/memory-studio (a checkout reached through a linked folder too), that path as typed from here; else (node
 * electron/host/bin.cjs) the README's bin/memory-studio. A command the keeper answers uses the prefix its client sent.
 */
export function cliPrefix(): string {
  const sent = requestIo()?.prefix;
  if (sent) return sent;
  const script = resolve(process.argv[1] ?? '');
  if (basename(script) === 'memory-studio' && isLink(script))
    return cliEnv().npm_command === 'exec' ? 'npx --offline memory-studio' : 'memory-studio';
  const ours = basename(script) === 'memory-studio' && realOrSelf(script) === realOrSelf(README_BIN);
  return readmeCommand(cliCwd(), process.platform, ours ? script : README_BIN);
}

/**
 * A hint written in core ("Run the doctor again (memory-studio doctor)") with the way this run was started, so it can
 * be pasted. Only for text of our own (hints, usage errors): never a message that echoes a person's words or paths.
 * `first` rewrites only the first command (a reason that names a file after it).
 */
export function withCliPrefix(text: string, first = false): string {
  const prefix = cliPrefix();
  if (prefix === 'memory-studio') return text;
  const command = /(?<![\w/.\\-]|--offline )memory-studio (?=[a-z-])/g;
  return first ? text.replace(new RegExp(command.source), `${prefix} `) : text.replace(command, `${prefix} `);
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
