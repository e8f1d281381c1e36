// `memory-studio keep`: a process the person starts that keeps one home's index fresh from file events and answers
// that home's read-only index commands for the CLI (as git's fsmonitor daemon or watchman do for `git status`). The
// CLI then skips Node's module loading and the stat pass of every file; the answers are the same commands' answers,
// run here one at a time, with their output forwarded (`keeper-client.ts` is the other side and the protocol).
//
// The index is trusted without a stat pass only while the home's watch vouches (`home-watch.ts`) and its event count
// has not moved since the last refresh began, the index file and its generation are the ones that refresh left, and
// the home reads as it did (config, roots, Codex's DB files). Anything else refreshes first, as the CLI would.
import { chmodSync, existsSync, mkdirSync, statSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import type { HomeInfo } from '../../shared/domain';
import { inspectHome, resolveCodexHome } from '../core/codex/home';
import { watchHomeTree, type HomeWatch } from '../core/index-store/home-watch';
import type { IndexedHome } from '../core/index-store/indexed-home';
import { IndexManager } from '../core/index-store/manager';
import { indexPathFor } from '../core/index-store/open-index';
import { generationOf } from '../core/index-store/write';
import { resolveDataDir } from '../core/service/data-dir';
import { configureWorkerPool, shutdownWorkerPool } from '../core/workers/pool';
import { StudioFailure } from '../core/platform/errors';
import { main } from './cli';
import { CliUsageError } from './cli-errors';
import { provideCliIndex, requireHome, type CliIndex, type CliIndexOptions } from './cli-index';
import { useTerminal } from './cli-io';
import { printUnmasked, routeConsole } from './cli-output';
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

/** Quiet time after the last event before the keeper refreshes on its own, so the next command finds it done. */
const SETTLE_MS = 1_000;
/** A watch that lost a folder is made again at most this often. */
const REWATCH_MS = 10_000;
const MAX_REQUEST_BYTES = 1024 * 1024;

interface Keeping {
  home: HomeInfo;
  dataDir: string;
  indexPath: string;
  manager: IndexManager;
  watch: HomeWatch;
  watchedAt: number;
  /** The watch's count when the last good refresh began, the index file's inode it left, or null before the first. */
  cleanAt: number | null;
  indexIno: number | null;
  verbose: boolean;
}

const noClose = () => undefined;

function log(line: string): void {
  process.stderr.write(`${line}\n`); // the keeper's own lines never go to a client
}

function sameHome(a: HomeInfo, b: HomeInfo): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function indexIno(path: string): number | null {
  return statSync(path, { throwIfNoEntry: false })?.ino ?? null;
}

/** The last refresh, when nothing can have changed since it began; else null (refresh first). */
function vouchedIndex(k: Keeping, home: HomeInfo): IndexedHome | null {
  const last = k.manager.last(home.codexHome);
  if (!last || !last.sessionsScanned || k.cleanAt === null || !k.watch.vouches() || k.watch.changes() !== k.cleanAt) return null;
  if (!sameHome(last.home, home) || indexIno(k.indexPath) !== k.indexIno) return null;
  try {
    if (generationOf(last.db) !== last.generation) return null; // another process wrote the index: its changes first
  } catch {
    return null;
  }
  // Codex's usage counters and DB signature are read again by each command, as in a fresh CLI process.
  last.usage = undefined;
  last.answerKey = undefined;
  return last;
}

async function freshIndex(k: Keeping, home: HomeInfo): Promise<IndexedHome | null> {
  const vouched = vouchedIndex(k, home);
  if (vouched) return vouched;
  if (k.watch.problem() && Date.now() - k.watchedAt > REWATCH_MS) rewatch(k);
  if (indexIno(k.indexPath) !== k.indexIno) k.manager.close(); // replaced by another process's rebuild: reopen it
  k.manager.markDirty();
  const seen = k.watch.changes();
  const started = performance.now();
  const indexed = await k.manager.fresh(home, { sessions: true });
  k.cleanAt = indexed ? seen : null;
  k.indexIno = indexed ? indexIno(k.indexPath) : null;
  if (k.verbose) log(`refreshed the index in ${Math.round(performance.now() - started)} ms`);
  return indexed;
}

function rewatch(k: Keeping): void {
  k.watch.dispose();
  k.watch = watchHomeTree(k.home.codexHome, () => scheduleSettle(k));
  k.watchedAt = Date.now();
  k.watch.ready.then(
    () => k.watch.problem() && log(`The watch cannot vouch for this home: ${k.watch.problem()}; each answer starts with a stat pass.`),
    () => undefined,
  );
}

// Requests, and refreshes of the keeper's own, run one at a time: a command's console and terminal are the process's.
let queue: Promise<unknown> = Promise.resolve();
function serially<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work, work);
  queue = next.catch(() => undefined);
  return next;
}

let settleTimer: NodeJS.Timeout | undefined;
let current: Keeping | null = null;
function scheduleSettle(k: Keeping): void {
  if (settleTimer) clearTimeout(settleTimer);
  settleTimer = setTimeout(() => {
    settleTimer = undefined;
    if (current !== k) return;
    void serially(async () => freshIndex(k, await inspectHome({ codexHome: k.home.codexHome, source: k.home.source }))).catch(
      (error: unknown) => log(`Refreshing the index failed: ${String(error)}`),
    );
  }, SETTLE_MS);
  settleTimer.unref();
}

/** The provider for commands run here: the kept index for the kept home (any other home opens as usual). */
function provider(k: Keeping) {
  return async (values: { 'codex-home'?: string; 'data-dir'?: string }, options: CliIndexOptions): Promise<CliIndex | null> => {
    const dataDir = resolveDataDir({ flag: values['data-dir'] });
    const choice = resolveCodexHome({ flag: values['codex-home'] });
    if (dataDir !== k.dataDir || choice.codexHome !== k.home.codexHome) return null;
    const home = await inspectHome(choice);
    requireHome(home);
    await recoverBeforeCommand(home, dataDir);
    options.beforeRefresh?.(home, k.indexPath);
    if (options.parts === 'none') return { home, dataDir, indexed: null, db: k.manager.database(home), close: noClose };
    const indexed = await freshIndex(k, home);
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

/** Why this keeper must not answer `request` (the client then runs the command itself), or null. */
function declineReason(request: KeeperRequest, build: string): string | null {
  if (request.protocol !== KEEPER_PROTOCOL || request.build !== build)
    return `The running \`memory-studio keep\` is from another build of Memory Studio, so this command runs without it; restart the keeper.`;
  if (!KEPT_COMMANDS.includes(request.argv[0] ?? '')) return '';
  const ours = keeperEnv();
  if (KEEPER_ENV.some((key) => (request.env[key] ?? null) !== ours[key])) return '';
  if (!existsSync(request.cwd)) return '';
  return null;
}

async function answer(request: KeeperRequest, send: (frame: KeeperFrame) => void): Promise<void> {
  // One pass of the event loop: file events queued before this request arrived are counted before it is answered.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  const started = performance.now();
  const cwd = process.cwd();
  useTerminal({
    stdoutIsTTY: request.tty.stdout === true,
    stderrIsTTY: request.tty.stderr === true,
    writeStderr: (s) => send({ t: 'err', s }),
  });
  routeConsole((stream, s) => send({ t: stream, s }));
  let code = 1;
  try {
    process.chdir(request.cwd);
    code = await main(request.argv);
  } catch (error) {
    send({ t: 'err', s: `${error instanceof Error ? error.message : String(error)}\n` });
  } finally {
    routeConsole(null);
    useTerminal(null);
    process.chdir(cwd);
  }
  if (current?.verbose) log(`answered ${request.argv[0]} in ${Math.round(performance.now() - started)} ms (exit ${code})`);
  send({ t: 'exit', code });
}

function serveConnection(socket: Socket, build: string): void {
  let buffer = '';
  let done = false;
  const send = (frame: KeeperFrame) => {
    if (!socket.destroyed) socket.write(`${JSON.stringify(frame)}\n`);
  };
  socket.setEncoding('utf8');
  socket.on('error', () => socket.destroy()); // the client went away (Ctrl+C, `| head`): its command still finishes here
  socket.on('data', (chunk: string) => {
    if (done) return;
    buffer += chunk;
    const end = buffer.indexOf('\n');
    if (end < 0) {
      if (buffer.length > MAX_REQUEST_BYTES) socket.destroy();
      return;
    }
    done = true;
    let request: unknown;
    try {
      request = JSON.parse(buffer.slice(0, end));
    } catch {
      request = null;
    }
    if (!validRequest(request)) return void socket.end(`${JSON.stringify({ t: 'decline', why: '' } satisfies KeeperFrame)}\n`);
    const why = declineReason(request, build);
    if (why !== null) return void socket.end(`${JSON.stringify({ t: 'decline', why } satisfies KeeperFrame)}\n`);
    send({ t: 'accept' });
    serially(() => answer(request, send))
      .catch((error: unknown) => log(`Answering ${request.argv[0]} failed: ${String(error)}`))
      .finally(() => socket.end());
  });
}

/** Another keeper answers on `socketPath` (refuse to start), or a dead one left its socket file (remove it). */
function claimSocket(socketPath: string): Promise<void> {
  if (process.platform === 'win32' || !existsSync(socketPath)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = connect(socketPath);
    probe.on('connect', () => {
      probe.destroy();
      reject(
        new StudioFailure('Conflict', `Another \`memory-studio keep\` already keeps this home (${socketPath}).`, {
          hint: 'Stop that one first (Ctrl+C where it runs), or use it: the CLI finds it by itself.',
        }),
      );
    });
    probe.on('error', () => {
      unlinkSync(socketPath);
      resolve();
    });
  });
}

function listen(socketPath: string, build: string): Promise<Server> {
  if (process.platform !== 'win32') mkdirSync(dirname(socketPath), { recursive: true, mode: 0o700 });
  const server = createServer((socket) => serveConnection(socket, build));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      if (process.platform !== 'win32') chmodSync(socketPath, 0o600);
      resolve(server);
    });
  });
}

export async function keepCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { 'codex-home': { type: 'string' }, 'data-dir': { type: 'string' }, verbose: { type: 'boolean' } },
  });
  if (positionals.length > 0) throw new CliUsageError(`Unexpected argument "${positionals[0]}".`);
  const dataDir = resolveDataDir({ flag: values['data-dir'] });
  const home = await inspectHome(resolveCodexHome({ flag: values['codex-home'] }));
  requireHome(home);
  const socketPath = keeperSocketPath(dataDir, home.codexHome);
  await claimSocket(socketPath);
  await configureWorkerPool({ size: Math.max(1, availableParallelism()) });
  const k: Keeping = {
    home,
    dataDir,
    indexPath: indexPathFor(dataDir, home.codexHome),
    manager: new IndexManager({ dataDir, scanOnPool: false, log }),
    watch: watchHomeTree(home.codexHome, () => scheduleSettle(k)),
    watchedAt: Date.now(),
    cleanAt: null,
    indexIno: null,
    verbose: values.verbose === true,
  };
  current = k;
  provideCliIndex(provider(k));
  await k.watch.ready;
  await recoverBeforeCommand(home, dataDir);
  const first = await serially(() => freshIndex(k, home));
  if (!first) log(k.manager.status().message);
  const server = await listen(socketPath, buildId());
  printUnmasked(
    `Keeping the index of ${home.codexHome} fresh (${k.watch.folders()} folders watched); inspect, lint, budget and search on this home are answered here. Ctrl+C stops.`,
  );
  if (k.watch.problem()) log(`The watch cannot vouch for this home: ${k.watch.problem()}; each answer starts with a stat pass.`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  current = null;
  provideCliIndex(null);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await queue;
  k.watch.dispose();
  k.manager.dispose();
  await shutdownWorkerPool();
  log('Stopped keeping the index.');
  return 0;
}
