// Stopping while a pool worker is stuck: the pool gives up on a thread its termination cannot reach, and serve and the
// CLI end on SIGINT or SIGTERM whatever their worker does (real child processes; the worker blocks in a FIFO open).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { closeSync, constants, existsSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configureWorkerPool, runTask, shutdownWorkerPool } from '../../../electron/core/runtime/pool';
import { onStopSignals } from '../../../electron/host/stop-signals';
import { generateHome } from '../../fixtures';
import { makeTempDir, until } from '../helpers';
import { openSqlite } from '../../../electron/core/platform/sqlite';

const repo = resolve(__dirname, '..', '..', '..');
const built = existsSync(join(repo, 'out', 'electron', 'host', 'cli.js'));
const fixtures = join(__dirname, 'fixtures');
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Resolves with `value` or fails the test when `what` has not happened within the guard (a hang, not a timing). */
async function within<T>(what: string, value: Promise<T>, ms = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([value, guard]);
  } finally {
    clearTimeout(timer);
  }
}

/** A FIFO the stuck worker blocks on, and the marker it writes once it has its task; `release` lets a blocked open end. */
async function stuckFifo(): Promise<{ dir: string; fifo: string; marker: string; release: () => void }> {
  const temp = await makeTempDir();
  cleanups.push(() => temp.cleanup());
  const fifo = join(temp.dir, 'stuck.fifo');
  execFileSync('mkfifo', [fifo]);
  const release = () => {
    // A writer's open (non-blocking: ENXIO when no reader waits) ends the reader's blocked open.
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // nobody is blocked on it
    }
  };
  return { dir: temp.dir, fifo, marker: join(temp.dir, 'stuck.marker'), release };
}

describe('onStopSignals', () => {
  it('stops cleanly at the first signal and ends the process at a second one', () => {
    const source = new EventEmitter();
    const stops: string[] = [];
    const forced: string[] = [];
    const signals = onStopSignals((s) => stops.push(s), { source, deadlineMs: 3_600_000, force: (s) => forced.push(s) });
    source.emit('SIGTERM', 'SIGTERM');
    expect(stops).toEqual(['SIGTERM']);
    expect(forced).toEqual([]);
    expect(signals.received).toBe('SIGTERM');
    source.emit('SIGINT', 'SIGINT');
    expect(forced).toEqual(['SIGINT']);
    expect(stops).toEqual(['SIGTERM']);
    signals.dispose();
    expect(source.listenerCount('SIGINT') + source.listenerCount('SIGTERM')).toBe(0);
  });
});

describe.skipIf(!built)('a worker stuck in a system call', () => {
  it('is given up on by the pool shutdown, which says so instead of waiting for ever', async () => {
    const { fifo, marker, release } = await stuckFifo();
    process.env.STUCK_FIFO = fifo;
    process.env.STUCK_MARKER = marker;
    cleanups.push(() => configureWorkerPool({}));
    cleanups.push(release); // the thread ends once its open returns: it was asked to exit and terminated meanwhile
    await configureWorkerPool({ script: join(fixtures, 'stuck-worker.cjs'), size: 1 });
    const task = runTask('hunks', { base: 'a\n', proposed: 'b\n' }).catch((error: Error) => error);
    await until('the worker taking its task', () => existsSync(marker));
    const result = await within('the pool shutdown', shutdownWorkerPool({ graceMs: 100 }));
    expect(result.stuck).toBe(1);
    expect(await task).toMatchObject({ kind: 'Cancelled', message: expect.stringMatching(/closing/) });
  });

  const spawnStuck = async (args: (home: string, data: string) => string[]) => {
    const stuck = await stuckFifo();
    const manifest = await generateHome({ dir: join(stuck.dir, 'home'), scale: 'small', version: 'v1', seed: 3 });
    const data = join(stuck.dir, 'data');
    const child = spawn(process.execPath, [join(fixtures, 'stuck-host.cjs'), ...args(manifest.codexHome, data)], {
      env: { ...process.env, STUCK_FIFO: stuck.fifo, STUCK_MARKER: stuck.marker, MEMORY_STUDIO_NO_KEEPER: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.once('exit', (code, signal) => done({ code, signal })),
    );
    cleanups.push(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    return { child, exited, home: manifest.codexHome, marker: stuck.marker, output: () => output };
  };

  const call = async (url: string, token: string, channel: string) =>
    fetch(`${url}/api/${channel}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 'v1' }),
    }).catch(() => null); // it never answers: the process is stopped under it

  const serveStuck = async () => {
    const run = await spawnStuck((home, data) => ['serve', '--codex-home', home, '--data-dir', data, '--port', '0']);
    await until('serve printing its URL', () => /Open: http/.test(run.output()));
    const [, url, token] = /Open: (http:\/\/127\.0\.0\.1:\d+)\/\S*token=([A-Za-z0-9_-]+)/.exec(run.output()) ?? [];
    void call(url as string, token as string, 'inspect.budget');
    await until('a pool worker taking the budget task', () => existsSync(run.marker));
    return run;
  };

  const stops = async (run: { child: ChildProcess; exited: Promise<unknown>; output: () => string }, signal: NodeJS.Signals) => {
    run.child.kill(signal);
    const how = await within(`the process ending after ${signal}`, run.exited);
    return { how, output: run.output() };
  };

  it('serve ends on SIGINT', async () => {
    const { how, output } = await stops(await serveStuck(), 'SIGINT');
    expect(output).toMatch(/Stopping Memory Studio/);
    expect(how).toMatchObject({ signal: 'SIGINT' });
  });

  it('serve ends on SIGTERM', async () => {
    const { how, output } = await stops(await serveStuck(), 'SIGTERM');
    expect(output).toMatch(/Stopping Memory Studio/);
    expect(how).toMatchObject({ signal: 'SIGTERM' });
  });

  it('a consolidation ends on SIGINT and hands Codex lease back', async () => {
    const run = await spawnStuck((home, data) => [
      'consolidate',
      '--codex-home',
      home,
      '--data-dir',
      data,
      '--version',
      'v1',
      '--engine',
      'builtin',
    ]);
    await until('the run handing its first step to a worker', () => existsSync(run.marker));
    const db = join(run.home, 'memories_1.sqlite');
    const holder = () => {
      const conn = openSqlite(db, { readonly: true, fileMustExist: true });
      try {
        return (
          conn.prepare("SELECT worker_id FROM jobs WHERE kind = 'memory_consolidate_global' AND job_key = 'global'").get() as {
            worker_id: string | null;
          }
        ).worker_id;
      } finally {
        conn.close();
      }
    };
    expect(holder()).toMatch(/^memory-studio:/); // claimed before anything was read
    const { output } = await stops(run, 'SIGINT');
    expect(output).toMatch(/cancelled/i);
    expect(holder() ?? '').not.toMatch(/^memory-studio:/);
  });
});
