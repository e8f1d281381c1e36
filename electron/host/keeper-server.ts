// The keeper's server: one home's index kept fresh from file events, and that home's read-only index commands answered
// for the CLI over a socket in the data folder (`keeper-client.ts` is the other side and the protocol). Two hosts run
// it: `memory-studio keep` (keeper.ts), and the app itself (`serve`, `npm start`, Electron) on a thread of its own while
// it is open on a home (keeper-app.ts), so a person who keeps the app open gets the fast path without starting anything.
//
// When the index may be answered from without the stat pass is for `core/service/use-cases/kept-index.ts` to say;
// what the watch sees, for `core/codex/home-watch.ts`.
import { chmodSync, existsSync, mkdirSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { dirname, isAbsolute, resolve as resolvePath } from 'node:path';
import { isMainThread } from 'node:worker_threads';
import type { HomeInfo } from '../../shared/domain';
import type { IndexStatus } from '../../shared/search';
import { inspectHome } from '../core/service/use-cases/command-home';
import { StudioFailure } from '../core/platform/errors';
import { main } from './cli';
import { CliCancelled, progressPrinter, requireHome, type CliIndex, type CliIndexOptions } from './cli-index';
import { cliCodexHome, cliDataDir, requestIo, runOutsideIo, runWithIo, type CliIo } from './cli-io';
import { recoverBeforeCommand } from './cli-recovery';
import {
  buildId,
  KEEPER_ENV,
  KEEPER_PROTOCOL,
  keptCommand,
  keeperEnv,
  keeperSocketPath,
  type KeeperFrame,
  type KeeperRequest,
} from './keeper-client';
import { freshIndex, keptDatabase, logProblem, startKeeping, type Keeping } from '../core/service/use-cases/kept-index';

/** Quiet time after the last event before the keeper refreshes on its own, so the next command finds it done. */
const SETTLE_MS = 1_000;
const MAX_REQUEST_BYTES = 1024 * 1024;
/** How long a stopping keeper lets the command it is answering finish before it cancels it and ends its connection. */
const CLOSE_GRACE_MS = 500;
/** Unix sockets take a path of at most 107 bytes (104 on macOS). */
const MAX_SOCKET_PATH = 103;

const noClose = () => undefined;

export interface KeeperOptions {
  home: HomeInfo;
  dataDir: string;
  /** Runs once the socket is claimed, before the watch starts (`keep` starts its worker pool here). */
  prepare?: () => Promise<void>;
  /** The refreshes' times and reasons in the host's log. */
  verbose: boolean;
  /** A line per answered command in the host's log (`keep --verbose`; the app always, as a server's access log). */
  logAnswers: boolean;
  /** Recover an interrupted apply and refresh the index before listening (`keep`: ready when it says so). */
  refreshFirst: boolean;
  /** The host's own log (its stderr), never a client's. */
  log(line: string): void;
  /** Progress of refreshes only on the terminal of the command waiting on them (the app, whose log is its own). */
  quietOutsideRequests?: boolean;
  maxPages?: number;
}

export interface KeeperHandle {
  socketPath: string;
  /** Stops answering (waiting clients are declined), gives the command being answered CLOSE_GRACE_MS, stops the rest. */
  close(): Promise<void>;
  /** How many folders the watch holds. */
  folders(): number;
}

/** Why a keeper must not answer `request` (the client then runs the command itself; '' says nothing), or null. */
function declineReason(request: KeeperRequest, build: string): string | null {
  if (request.protocol !== KEEPER_PROTOCOL || request.build !== build)
    return 'The Memory Studio answering this home (`memory-studio keep`, or the app) is from another build, so this command runs without it; restart it.';
  if (!keptCommand(request.argv)) return '';
  const ours = keeperEnv();
  if (KEEPER_ENV.some((key) => (request.env[key] ?? null) !== ours[key])) return '';
  if (!existsSync(request.cwd)) return '';
  // Codex reads a relative CODEX_SQLITE_HOME in its own folder; the home is read here, in the keeper's.
  const sqliteHome = request.env.CODEX_SQLITE_HOME;
  if (sqliteHome && !isAbsolute(sqliteHome) && !sqliteHome.startsWith('~') && resolvePath(request.cwd) !== keeperCwd()) return '';
  return null;
}

/** The keeper's own folder, or null when it was removed since it started. */
function keeperCwd(): string | null {
  try {
    return process.cwd();
  } catch {
    return null;
  }
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
          `This home is already kept: \`memory-studio keep\` or the Memory Studio app answers its commands (${socketPath}).`,
          'Stop that one first (Ctrl+C where it runs, or quit the app), or use it: the CLI finds it by itself.',
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

/** Said before the first refresh (which may be a cold build), not after it. */
function checkSocketPath(socketPath: string): void {
  if (process.platform !== 'win32' && Buffer.byteLength(socketPath) > MAX_SOCKET_PATH)
    throw new StudioFailure('Invalid', `The keeper's socket path is too long for this system: ${socketPath}.`, {
      hint: 'Give Memory Studio a data folder with a shorter path (--data-dir, or MEMORY_STUDIO_DATA), for the keeper and the CLI alike.',
    });
}

function listen(socketPath: string, onConnection: (socket: Socket) => void): Promise<Server> {
  if (process.platform !== 'win32') {
    mkdirSync(dirname(socketPath), { recursive: true, mode: 0o700 });
    chmodSync(dirname(socketPath), 0o700);
  }
  const server = createServer(onConnection);
  // Only this user may connect, from the first moment: the folder is 0700. In `keep` the socket is made under umask
  // 077 too; a thread (the app's keeper) cannot set the umask, so there the socket is made 0600 once it exists.
  const umask = process.platform === 'win32' || !isMainThread ? null : process.umask(0o077);
  return new Promise<Server>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve(server));
  })
    .then((listening) => {
      if (process.platform !== 'win32') chmodSync(socketPath, 0o600);
      return listening;
    })
    .finally(() => {
      if (umask !== null) process.umask(umask);
    });
}

/**
 * Claims the home's socket (a second keeper of it is refused with a Conflict), starts the watch and listens. The index
 * is refreshed before it listens (`refreshFirst`: `keep`), on each command, and a second after the last file event.
 */
export async function startKeeper(options: KeeperOptions): Promise<KeeperHandle> {
  const { home, dataDir } = options;
  const socketPath = keeperSocketPath(dataDir, home.codexHome);
  checkSocketPath(socketPath);
  await claimSocket(socketPath);
  await options.prepare?.();
  const state = new KeeperState(options);
  let server: Server;
  try {
    await state.k.watch.ready;
    if (options.refreshFirst) {
      await recoverBeforeCommand(home, dataDir);
      if (!(await state.serially(() => freshIndex(state.k, home)))) options.log(state.k.manager.status().message);
    }
    // This process's build, once: a rebuild on disk while it runs must not make it answer the new build's clients.
    const build = buildId();
    server = await listen(socketPath, (socket) => state.serveConnection(socket, build));
  } catch (error) {
    state.dispose();
    throw error;
  }
  logProblem(state.k);
  return {
    socketPath,
    folders: () => state.k.watch.folders(),
    close: async () => {
      state.closing = true;
      server.close(); // no new connections; the ones open are ended below
      // A client still waiting its turn runs its command itself; the one being answered gets a moment to finish.
      state.declineWaiting();
      await Promise.race([state.idle(), new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
      state.dispose();
    },
  };
}

/** `progressPrinter`, printing only while a command is answered (a refresh of the keeper's own says nothing). */
function quietPrinter(notices: { last: string | null }): (status: IndexStatus) => void {
  const print = progressPrinter(notices);
  return (status) => {
    if (requestIo()) print(status);
  };
}

/** One keeper's index, its queue of requests and refreshes, and the connection it is answering. */
class KeeperState {
  readonly k: Keeping;
  settleTimer: NodeJS.Timeout | undefined;
  closing = false;
  private queue: Promise<unknown> = Promise.resolve();
  private running: Socket | null = null;
  private readonly connections = new Set<Socket>();

  constructor(private readonly options: KeeperOptions) {
    // The watch and its events live outside any request: what they schedule prints to the host's log, not a client.
    this.k = runOutsideIo(() =>
      startKeeping(options.home, options.dataDir, options.verbose, () => this.scheduleSettle(), {
        log: options.log,
        // The app's keeper shows a refresh's progress only to the command that waits on it, never in the app's log.
        printer: options.quietOutsideRequests ? quietPrinter : progressPrinter,
        maxPages: options.maxPages,
        detached: runOutsideIo,
      }),
    );
  }

  /** Requests, and refreshes of the keeper's own, run one at a time: they share one index and one refresh of it. */
  serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  idle(): Promise<unknown> {
    return this.queue;
  }

  dispose(): void {
    this.closing = true;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    for (const socket of this.connections) socket.destroy();
    this.k.watch.dispose();
    this.k.manager.dispose();
  }

  /** A second after the last event, the keeper refreshes by itself, so the next command finds the index done. */
  private scheduleSettle(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    if (this.closing) return;
    this.settleTimer = runOutsideIo(() =>
      setTimeout(() => {
        this.settleTimer = undefined;
        if (this.closing) return;
        const { home } = this.k;
        this.serially(async () => {
          const now = await inspectHome({ codexHome: home.codexHome, source: home.source });
          if (now.exists) await freshIndex(this.k, now); // a home briefly gone (a swap, a mount) is not indexed as empty
        }).catch((error: unknown) => this.options.log(`Refreshing the index failed: ${String(error)}`));
      }, SETTLE_MS),
    );
    this.settleTimer.unref();
  }

  /** The provider for commands run here: the kept index for the kept home (any other home opens as usual). */
  private provider() {
    const k = this.k;
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

  private async answer(request: KeeperRequest, send: (frame: KeeperFrame) => void): Promise<void> {
    const started = performance.now();
    // The command runs in the client's world (its folder, environment, terminal and streams), carried with it, not set
    // on this process: no chdir, no swapped console, so nothing of one request reaches another or the host's own log.
    const io: CliIo = {
      cwd: request.cwd,
      env: { ...process.env, ...definedOnly(request.env) },
      stdoutIsTTY: request.tty.stdout === true,
      stderrIsTTY: request.tty.stderr === true,
      write: (stream, s) => send({ t: stream, s }),
      index: this.provider(),
      prefix: typeof request.prefix === 'string' ? request.prefix : undefined,
    };
    let code = 1;
    try {
      code = await runWithIo(io, () => main(request.argv));
    } catch (error) {
      // masked, and routed to the client
      await runWithIo(io, async () => console.error(error instanceof Error ? error.message : String(error)));
    }
    if (this.options.logAnswers)
      this.options.log(`answered ${request.argv[0]} in ${Math.round(performance.now() - started)} ms (exit ${code})`);
    send({ t: 'exit', code });
  }

  /** Ends every connection not being answered with a decline (the client then runs its command itself). */
  declineWaiting(): void {
    for (const socket of this.connections) if (socket !== this.running) socket.end(`${JSON.stringify({ t: 'decline', why: '' })}\n`);
  }

  serveConnection(socket: Socket, build: string): void {
    let closed = false;
    this.connections.add(socket);
    const send = (frame: KeeperFrame) => {
      if (!socket.destroyed) socket.write(`${JSON.stringify(frame)}\n`);
    };
    socket.on('error', () => socket.destroy()); // the client went away (Ctrl+C, `| head`)
    socket.on('close', () => {
      closed = true;
      this.connections.delete(socket);
      // Its command may be a long refresh: stop it, keeping what was written, as Ctrl+C does in the CLI.
      if (this.running === socket) this.k.manager.cancel();
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
      this.serially(async () => {
        if (closed || this.closing) return; // gone while it waited, or declined by a stopping keeper
        // Accepted only now: a client queued behind a long command runs its own after a few seconds.
        this.running = socket;
        send({ t: 'accept' });
        try {
          await this.answer(request, send);
        } finally {
          this.running = null;
        }
      })
        .catch((error: unknown) => this.options.log(`Answering ${request.argv[0]} failed: ${String(error)}`))
        .finally(() => socket.end());
    });
  }
}
