// A request whose caller is gone stops its work: the service answers Cancelled (before starting, or while its pool task
// runs), and serve aborts the work of an HTTP request the page dropped (a superseded query). The pool runs the
// stand-in worker that blocks in a FIFO open, so the task is still running when the caller leaves, whatever the load.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { configureWorkerPool, workerPoolStats } from '../../../electron/core/runtime/pool';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { startServeHost } from '../../../electron/host/serve';
import { makeTempDir, until } from '../helpers';

const stuckWorker = join(__dirname, '..', 'workers', 'fixtures', 'stuck-worker.cjs');
const cleanups: Array<() => Promise<void> | void> = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A home with a v1 summary, a service on it, and the pool on the stuck worker (one thread). */
async function setup(): Promise<{ service: StudioService; marker: string; dir: string }> {
  const temp = await makeTempDir();
  cleanups.push(() => temp.cleanup());
  const fifo = join(temp.dir, 'stuck.fifo');
  const marker = join(temp.dir, 'stuck.marker');
  execFileSync('mkfifo', [fifo]);
  process.env.STUCK_FIFO = fifo;
  process.env.STUCK_MARKER = marker;
  const root = join(temp.dir, 'home', 'memories');
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'memory_summary.md'), 'v1\n## User Profile\n');
  await writeFile(join(temp.dir, 'home', 'config.toml'), '[memories]\nversion = "v1"\n');
  const service = createStudioService({
    home: { codexHome: join(temp.dir, 'home'), source: 'flag' },
    dataDir: join(temp.dir, 'data'),
    host: 'serve',
    appVersion: 'test',
    watch: false,
    indexing: false,
    log: () => undefined,
  });
  cleanups.push(() => service.dispose());
  cleanups.push(() => configureWorkerPool({}));
  // The blocked open ends once something opens the FIFO for writing (the thread was terminated meanwhile).
  cleanups.push(() => {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // nobody is blocked on it
    }
  });
  await configureWorkerPool({ script: stuckWorker, size: 1 });
  return { service, marker, dir: temp.dir };
}

describe('a request whose caller is gone', () => {
  it('is answered Cancelled without starting when its signal has already aborted', async () => {
    const { service, marker } = await setup();
    const gone = new AbortController();
    gone.abort();
    const result = await service.dispatch('inspect.budget', { version: 'v1' }, { signal: gone.signal });
    expect(result).toMatchObject({ ok: false, error: { kind: 'Cancelled' } });
    expect(existsSync(marker)).toBe(false);
    expect(workerPoolStats().busy).toBe(0);
  });

  it('stops its pool task and is answered Cancelled when its signal aborts while the task runs', async () => {
    const { service, marker } = await setup();
    const gone = new AbortController();
    const answer = service.dispatch('inspect.budget', { version: 'v1' }, { signal: gone.signal });
    await until('the worker taking the budget task', () => existsSync(marker));
    expect(workerPoolStats().busy).toBe(1);
    gone.abort();
    expect(await answer).toMatchObject({ ok: false, error: { kind: 'Cancelled' } });
    expect(workerPoolStats().busy).toBe(0);
  });

  it("stops the doctor's analysis on its worker too (the app's longest read) when the caller leaves", async () => {
    const { service, marker } = await setup();
    const gone = new AbortController();
    const answer = service.dispatch('doctor.run', {}, { signal: gone.signal });
    await until('the worker taking the doctor task', () => existsSync(marker));
    expect(workerPoolStats().busy).toBe(1);
    gone.abort();
    expect(await answer).toMatchObject({ ok: false, error: { kind: 'Cancelled' } });
    expect(workerPoolStats().busy).toBe(0);
  });

  it('over HTTP: a request the page dropped stops the work behind it on the serve host', async () => {
    const { service, marker, dir } = await setup();
    const rendererDir = join(dir, 'renderer');
    await mkdir(rendererDir, { recursive: true });
    await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>t</title>');
    const handle = await startServeHost({ service, rendererDir });
    cleanups.push(() => handle.close());
    const req = request({
      host: '127.0.0.1',
      port: handle.port,
      path: '/api/inspect.budget',
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${handle.token}` },
    });
    req.on('error', () => undefined); // destroyed below, on purpose
    req.end(JSON.stringify({ version: 'v1' }));
    await until('the worker taking the budget task', () => existsSync(marker));
    expect(workerPoolStats().busy).toBe(1);
    req.destroy();
    await until('the pool task being stopped', () => workerPoolStats().busy === 0);
  });
});
