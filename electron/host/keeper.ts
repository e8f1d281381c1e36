// `memory-studio keep`: a process the person starts that keeps one home's index fresh from file events and answers
// that home's read-only index commands for the CLI (as git's fsmonitor daemon or watchman do for `git status`). The
// CLI then skips Node's module loading and the stat pass of every file; the answers are the same commands' answers,
// run here one at a time, with their output forwarded (`keeper-client.ts` is the other side and the protocol).
//
// When the index may be answered from without the stat pass is for `core/service/use-cases/kept-index.ts` to say;
// what the watch sees, for `core/codex/home-watch.ts`.
import { chmodSync, existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { availableParallelism } from 'node:os';
import { dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import { parseArgs } from 'node:util';
import { inspectHome } from '../core/service/use-cases/command-home';
import { checkDataDirPlacement } from '../core/service/data-dir-check';
import { configureWorkerPool, shutdownWorkerPool } from '../core/service/use-cases/runtime';
import { onStopSignals, raiseAgain, STOP_WORKER_GRACE_MS, type StopSignals } from './stop-signals';
import { StudioFailure } from '../core/platform/errors';
import { main } from './cli';
import { CliUsageError } from './cli-errors';
import { CliCancelled, progressPrinter, requireHome, type CliIndex, type CliIndexOptions } from './cli-index';
import { cliCodexHome, cliDataDir, runOutsideIo, runWithIo, type CliIo } from './cli-io';
import { printUnmasked } from './cli-output';
import { recoverBeforeCommand } from './cli-recovery';
import {
  buildId,
  KEEPER_ENV,
  KEEPER_PROTOCOL,
  KEPT_COMMANDS,
  keeperEnv,
  keeperSocketPath,
  type KeeperFrame,
  type KeeperRequest,
} from './keeper-client';
import { freshIndex, keptDatabase, logProblem, startKeeping, type Keeping } from '../core/service/use-cases/kept-index';

/** The keeper's own lines: its stderr, never a client's. */
function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Quiet time after the last event before the keeper refreshes on its own, so the next command finds it done. */
const SETTLE_MS = 1_000;
const MAX_REQUEST_BYTES = 1024 * 1024;

const noClose = () => undefined;

// Requests, and refreshes of the keeper's own, run one at a time: they share one index and one refresh of it.
let queue: Promise<unknown> = Promise.resolve();
function serially<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work, work);
  queue = next.catch(() => undefined);
  return next;
}

let settleTimer: NodeJS.Timeout | undefined;
let current: Keeping | null = null;

/** A second after the last event, the keeper refreshes by itself, so the next command finds the index done. */
function scheduleSettle(): void {
  if (settleTimer) clearTimeout(settleTimer);
  // Armed by a watch event; made outside any request, so the refresh it runs prints to the keeper's own stderr.
  settleTimer = runOutsideIo(() =>
    setTimeout(() => {
      settleTimer = undefined;
      const k = current;
      if (!k) return;
      serially(async () => {
        const home = await inspectHome({ codexHome: k.home.codexHome, source: k.home.source });
        if (home.exists) await freshIndex(k, home); // a home briefly gone (a swap, a mount) is not indexed as empty
      }).catch((error: unknown) => log(`Refreshing the index failed: ${String(error)}`));
    }, SETTLE_MS),
  );
  settleTimer.unref();
}

/** The provider for commands run here: the kept index for the kept home (any other home opens as usual). */
function provider(k: Keeping) {
  return async (values: { 'codex-home'?: string; 'data-dir'?: string }, options: CliIndexOptions): Promise<CliIndex | null> => {
    const dataDir = cliDataDir(values['data-dir']);
    const choice = cliCodexHome(values['codex-home']);
    if (dataDir !== k.dataDir || choice.codexHome !== k.home.codexHome) return null;
    const home = await inspectHome(choice);
    requireHome(home);
    await recoverBeforeCommand(home, dataDir);
    options.beforeRefresh?.(home, k.indexPath);
    if (options.parts === 'none') return { home, dataDir, indexed: null, db: keptDatabase(k, home), close: noClose };
    const indexed = await freshIndex(k, home, options.parts !== 'roots');
    const status = k.manager.status();
    // The client went away during a long refresh (Ctrl+C): as in the CLI, what was indexed is kept.
    if (!indexed && status.state === 'cancelled')
      throw new CliCancelled(`\nStopped indexing after ${status.done} of ${status.total} files; what was indexed is kept.`);
    return { home, dataDir, indexed, db: indexed?.db ?? null, close: noClose };
  };
}

function validRequest(value: unknown): value is KeeperRequest {
  const r = value as KeeperRequest;
  return (
    typeof r === 'object' &&
    r !== null &&
    Array.isArray(r.argv) &&
    r.argv.every((a) => typeof a === 'string') &&
    typeof r.cwd === 'string' &&
    typeof r.build === 'string' &&
    typeof r.env === 'object' &&
    r.env !== null &&
    typeof r.tty === 'object' &&
    r.tty !== null
  );
}

/** The keeper's own folder, or null when it was removed since it started. */
function keeperCwd(): string | null {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}

/** Why this keeper must not answer `request` (the client then runs the command itself; '' says nothing), or null. */
function declineReason(request: KeeperRequest, build: string): string | null {
  if (request.protocol !== KEEPER_PROTOCOL || request.build !== build)
    return 'The running `memory-studio keep` is from another build of Memory Studio, so this command runs without it; restart the keeper.';
  if (!KEPT_COMMANDS.includes(request.argv[0] ?? '')) return '';
  const ours = keeperEnv();
  if (KEEPER_ENV.some((key) => (request.env[key] ?? null) !== ours[key])) return '';
  if (!existsSync(request.cwd)) return '';
  // Codex reads a relative CODEX_SQLITE_HOME in its own folder; the home is read here, in the keeper's.
  const sqliteHome = request.env.CODEX_SQLITE_HOME;
  if (sqliteHome && !isAbsolute(sqliteHome) && !sqliteHome.startsWith('~') && resolvePath(request.cwd) !== keeperCwd()) return '';
  return null;
}

async function answer(k: Keeping, request: KeeperRequest, send: (frame: KeeperFrame) => void): Promise<void> {
  const started = performance.now();
  // The command runs in the client's world (its folder, environment, terminal and streams), carried with it, not set
  // on this process: no chdir, no swapped console, so nothing of one request reaches another or the keeper's own log.
  const io: CliIo = {
    cwd: request.cwd,
    env: { ...process.env, ...definedOnly(request.env) },
    stdoutIsTTY: request.tty.stdout === true,
    stderrIsTTY: request.tty.stderr === true,
    write: (stream, s) => send({ t: stream, s }),
    index: provider(k),
    prefix: typeof request.prefix === 'string' ? request.prefix : undefined,
  };
  let code = 1;
  try {
    code = await runWithIo(io, () => main(request.argv));
  } catch (error) {
    // masked, and routed to the client
    await runWithIo(io, async () => console.error(error instanceof Error ? error.message : String(error)));
  }
  if (k.verbose) log(`answered ${request.argv[0]} in ${Math.round(performance.now() - started)} ms (exit ${code})`);
  send({ t: 'exit', code });
}

/** The client's values of the variables the keeper compares (a client without one is already declined). */
function definedOnly(env: Record<string, string | null | undefined>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) if (typeof value === 'string') out[key] = value;
  return out;
}

/** Reads one request line; `onRequest` gets it, or the connection ends when it is too long. */
function readRequest(socket: Socket, onRequest: (line: string) => void): void {
  let buffer = '';
  let done = false;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    if (done) return;
    buffer += chunk;
    const end = buffer.indexOf('\n');
    if (end >= 0) {
      done = true;
      onRequest(buffer.slice(0, end));
    } else if (buffer.length > MAX_REQUEST_BYTES) socket.destroy();
  });
}

function serveConnection(k: Keeping, socket: Socket, build: string): void {
  let closed = false;
  const send = (frame: KeeperFrame) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(frame)}\n`);
  };
  socket.on('error', () => socket.destroy()); // the client went away (Ctrl+C, `| head`)
  socket.on('close', () => {
    closed = true;
    // Its command may be a long refresh: stop it, keeping what was written, as Ctrl+C does in the CLI.
    if (running === socket) k.manager.cancel();
  });
  readRequest(socket, (line) => {
    let request: unknown;
    try {
      request = JSON.parse(line);
    } catch {
      request = null;
    }
    const why = validRequest(request) ? declineReason(request, build) : '';
    if (why !== null || !validRequest(request)) return void socket.end(`${JSON.stringify({ t: 'decline', why: why ?? '' })}\n`);
    serially(async () => {
      if (closed) return; // gone while it waited
      // Accepted only now: a client queued behind a long command runs its own after a few seconds.
      running = socket;
      send({ t: 'accept' });
      try {
        await answer(k, request, send);
      } finally {
        running = null;
      }
    })
      .catch((error: unknown) => log(`Answering ${request.argv[0]} failed: ${String(error)}`))
      .finally(() => socket.end());
  });
}

let running: Socket | null = null;

/** Another keeper answers on `socketPath` (refuse to start), or a dead one left its socket file (remove it). */
function claimSocket(socketPath: string): Promise<void> {
  if (process.platform === 'win32' || !existsSync(socketPath)) return Promise.resolve();
  const refuse = (message: string, hint?: string) => new StudioFailure('Conflict', message, { path: socketPath, hint });
  return new Promise((resolve, reject) => {
    const probe = connect(socketPath);
    probe.on('connect', () => {
      probe.destroy();
      reject(
        refuse(
          `Another \`memory-studio keep\` already keeps this home (${socketPath}).`,
          'Stop that one first (Ctrl+C where it runs), or use it: the CLI finds it by itself.',
        ),
      );
    });
    probe.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNREFUSED')
        return reject(refuse(`${socketPath} is in the way and cannot be checked (${error.code ?? error.message}).`));
      try {
        unlinkSync(socketPath); // a keeper that was killed left it
        resolve();
      } catch (unlinkError) {
        reject(refuse(`A stopped keeper's socket ${socketPath} cannot be removed (${String(unlinkError)}).`));
      }
    });
  });
}

/** Unix sockets take a path of at most 107 bytes (104 on macOS). */
const MAX_SOCKET_PATH = 103;

/** Said before the first refresh (which may be a cold build), not after it. */
function checkSocketPath(socketPath: string): void {
  if (process.platform !== 'win32' && Buffer.byteLength(socketPath) > MAX_SOCKET_PATH)
    throw new StudioFailure('Invalid', `The keeper's socket path is too long for this system: ${socketPath}.`, {
      hint: 'Give Memory Studio a data folder with a shorter path (--data-dir, or MEMORY_STUDIO_DATA), for the keeper and the CLI alike.',
    });
}

function listen(k: Keeping, socketPath: string, build: string): Promise<Server> {
  if (process.platform !== 'win32') {
    mkdirSync(dirname(socketPath), { recursive: true, mode: 0o700 });
    chmodSync(dirname(socketPath), 0o700);
  }
  const server = createServer((socket) => serveConnection(k, socket, build));
  // The socket is made with the process's umask: only this user may connect, from the first moment.
  const umask = process.platform === 'win32' ? null : process.umask(0o077);
  return new Promise<Server>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve(server));
  }).finally(() => {
    if (umask !== null) process.umask(umask);
  });
}

export async function keepCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'codex-home': { type: 'string' }, 'data-dir': { type: 'string' }, verbose: { type: 'boolean' } },
  });
  if (positionals.length > 0) throw new CliUsageError(`Unexpected argument "${positionals[0]}".`);
  const dataDir = cliDataDir(values['data-dir']);
  const home = await inspectHome(cliCodexHome(values['codex-home']));
  requireHome(home);
  checkDataDirPlacement(dataDir, home.codexHome);
  const socketPath = keeperSocketPath(dataDir, home.codexHome);
  checkSocketPath(socketPath);
  await claimSocket(socketPath);
  await configureWorkerPool({ size: Math.max(1, availableParallelism()) });
  const k = startKeeping(home, dataDir, values.verbose === true, scheduleSettle, {
    log,
    printer: progressPrinter,
    maxPages: Number(process.env.MEMORY_STUDIO_INDEX_MAX_PAGES) || undefined,
    detached: runOutsideIo,
  });
  current = k;
  await k.watch.ready;
  await recoverBeforeCommand(home, dataDir);
  const first = await serially(() => freshIndex(k, home));
  if (!first) log(k.manager.status().message);
  const server = await listen(k, socketPath, buildId());
  printUnmasked(
    `Keeping the index of ${home.codexHome} fresh (${k.watch.folders()} folders watched); inspect, lint, budget and search on this home are answered here. Ctrl+C stops.`,
  );
  logProblem(k);
  let signals: StopSignals | undefined;
  const signal = await new Promise<NodeJS.Signals>((resolve) => (signals = onStopSignals(resolve)));
  current = null;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await queue;
  k.watch.dispose();
  k.manager.dispose();
  const { stuck } = await shutdownWorkerPool({ graceMs: STOP_WORKER_GRACE_MS });
  signals?.dispose();
  if (stuck > 0)
    raiseAgain(signal, `Stopped keeping the index; ${stuck} background worker(s) did not end, so the process ends without them.`);
  else log('Stopped keeping the index.');
  return 0;
}
