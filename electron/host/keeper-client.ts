// The CLI's side of `memory-studio keep`: before anything else loads, a read-only index command (inspect, lint, budget,
// search, doctor's report) looks for a keeper of its home in the data folder and, when one answers, lets it run the command and
// forwards its output. Node built-ins only: without a keeper this costs one failed connect, and nothing is loaded.
//
// Protocol (one connection per command, lines of JSON): the client sends its request; the keeper answers `accept` or
// `decline` (with why), then `out` / `err` text as the command prints it, then `exit` with the exit code. The client
// runs the command itself when there is no keeper, it declines, it does not accept within ACCEPT_MS, or it goes away
// before anything was printed.
import { createHash } from 'node:crypto';
import { lstatSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { resolveCodexHome } from '../core/service/use-cases/locate';
import { resolveDataDir } from '../core/service/data-dir';
import { cliPrefix } from './cli-follow-up';

export const KEEPER_PROTOCOL = 1;
export const KEPT_COMMANDS: readonly string[] = ['inspect', 'lint', 'budget', 'search', 'doctor'];

/** A command the keeper answers: a kept one, read-only as asked (`doctor --fix` writes a proposal, so runs here). */
export function keptCommand(argv: readonly string[]): boolean {
  if (!KEPT_COMMANDS.includes(argv[0] ?? '')) return false;
  const end = argv.indexOf('--');
  return argv[0] !== 'doctor' || !(end < 0 ? argv : argv.slice(0, end)).some((a) => a === '--fix' || a.startsWith('--fix='));
}

/**
 * What the keeper's answer depends on besides the arguments: it answers only a client whose values are its own
 * (anything else is run by the client itself).
 */
export const KEEPER_ENV = [
  'CODEX_HOME',
  'CODEX_SQLITE_HOME',
  'MEMORY_STUDIO_DATA',
  'MEMORY_STUDIO_INDEX_MAX_PAGES',
  'MEMORY_STUDIO_DEBUG',
  'HOME',
  'USERPROFILE',
  'XDG_CONFIG_HOME',
  'APPDATA',
  'TZ',
  'LANG',
  'LC_ALL',
] as const;

/** How long a command waits for the keeper to take it up (it may be busy with another) before running by itself. */
const ACCEPT_MS = Number(process.env.MEMORY_STUDIO_KEEPER_ACCEPT_MS) || 3_000;

export interface KeeperRequest {
  protocol: number;
  build: string;
  argv: string[];
  cwd: string;
  env: Record<string, string | null>;
  tty: { stdout: boolean; stderr: boolean };
  /** How the client was started (`bin/memory-studio`, `npx --offline memory-studio`), for the commands it prints. */
  prefix?: string;
}

export type KeeperFrame =
  { t: 'accept' } | { t: 'decline'; why: string } | { t: 'out'; s: string } | { t: 'err'; s: string } | { t: 'exit'; code: number };

/** The keeper's socket for a home: in the data folder (a named pipe on Windows), by the same hash as its index. */
export function keeperSocketPath(dataDir: string, codexHome: string): string {
  const key = createHash('sha256').update(codexHome).digest('hex').slice(0, 16);
  if (process.platform === 'win32')
    return `\\\\.\\pipe\\memory-studio-${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}-${key}`;
  return join(dataDir, 'keeper', `${key}.sock`);
}

/** This build of the CLI: a keeper started before a rebuild answers with the old code, so it must decline. */
export function buildId(): string {
  const info = statSync(join(__dirname, 'cli.js'));
  return `${info.size}:${info.mtimeMs}:${info.ino}`;
}

/** The value of `--name` in `argv` as node:util's parseArgs would read it (the last one wins; `--` ends options). */
function optionValue(argv: readonly string[], name: string): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg === `--${name}`) value = argv[++i];
    else if (arg.startsWith(`--${name}=`)) value = arg.slice(name.length + 3);
  }
  return value;
}

export function keeperEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string | null> {
  return Object.fromEntries(KEEPER_ENV.map((key) => [key, env[key] ?? null]));
}

/**
 * Runs `argv` through the home's keeper: the exit code, or null when the command should run here. A wrong guess of
 * the home only costs speed: the keeper answers any home, from its own index only for the one it watches.
 */
export function runThroughKeeper(argv: readonly string[]): Promise<number | null> {
  if (!keptCommand(argv) || argv.includes('--help') || argv.includes('-h')) return Promise.resolve(null);
  const off = process.env.MEMORY_STUDIO_NO_KEEPER;
  if (off !== undefined && off !== '' && off !== '0') return Promise.resolve(null);
  let socketPath: string;
  let request: KeeperRequest;
  try {
    const dataDir = resolveDataDir({ flag: optionValue(argv, 'data-dir') });
    socketPath = keeperSocketPath(dataDir, resolveCodexHome({ flag: optionValue(argv, 'codex-home') }).codexHome);
    if (!ownSocket(socketPath)) return Promise.resolve(null);
    request = {
      protocol: KEEPER_PROTOCOL,
      build: buildId(),
      argv: [...argv],
      cwd: process.cwd(),
      env: keeperEnv(),
      tty: { stdout: process.stdout.isTTY === true, stderr: process.stderr.isTTY === true },
      prefix: cliPrefix(),
    };
  } catch {
    return Promise.resolve(null);
  }
  return exchange(socketPath, request);
}

/** A socket this user made (on a shared data folder another user's could stand there): else the command runs here. */
function ownSocket(socketPath: string): boolean {
  if (process.platform === 'win32') return true; // a named pipe: nothing on disk to check
  const info = lstatSync(socketPath, { throwIfNoEntry: false });
  return info !== undefined && info.isSocket() && (typeof process.getuid !== 'function' || info.uid === process.getuid());
}

function exchange(socketPath: string, request: KeeperRequest): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    let printed = false;
    let settled = false;
    let buffer = '';
    let scanned = 0;
    const finish = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(code);
    };
    // A keeper that is stuck (a debugger, a suspended process) must not hold the command: it runs here instead.
    const timer = setTimeout(() => finish(null), ACCEPT_MS);
    /** The connection ended without an exit: run here if nothing was printed yet, else say so. */
    const ended = () => {
      if (!settled) finish(printed ? lostKeeper(socketPath) : null);
    };
    const onFrame = (frame: KeeperFrame) => {
      if (frame.t === 'accept') clearTimeout(timer);
      else if (frame.t === 'decline') {
        if (frame.why) process.stderr.write(`${frame.why}\n`);
        finish(null);
      } else if (frame.t === 'out' || frame.t === 'err') {
        printed = true;
        (frame.t === 'out' ? process.stdout : process.stderr).write(frame.s);
      } else if (frame.t === 'exit') finish(frame.code);
    };
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify(request)}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      // A frame can be megabytes (inspect --json): look for its end only in what arrived since the last look.
      for (let end = buffer.indexOf('\n', scanned); end >= 0 && !settled; end = buffer.indexOf('\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        scanned = 0;
        try {
          onFrame(JSON.parse(line) as KeeperFrame);
        } catch {
          ended();
        }
      }
      scanned = buffer.length;
    });
    // No keeper (ENOENT), a keeper that died (ECONNREFUSED on its socket file), or one gone mid-answer.
    socket.on('error', ended);
    socket.on('close', ended);
  });
}

function lostKeeper(socketPath: string): number {
  process.stderr.write(
    `\nMemory Studio's keeper (${socketPath}) stopped before it finished answering; run the command again (MEMORY_STUDIO_NO_KEEPER=1 runs it without the keeper).\n`,
  );
  return 1;
}
