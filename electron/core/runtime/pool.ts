// One bounded pool of worker threads for every heavy step (parse, lint, tokens, diff, consolidation, index), with cancel.
//
// The pool knows tasks by name only. What each name runs is the task registry (tasks/registry.ts), which a host hands
// over with installTasks() and the worker thread loads itself; so no area that runs a task imports the areas behind
// the other tasks, and the pool imports none of them.
//
// The worker script is the compiled `tasks/worker-main.js` in out/. Tests run from the TypeScript sources: their
// setup bundles the worker from those sources and names it in MEMORY_STUDIO_POOL_SCRIPT, so a pool task under test
// runs the source under test, never an older build. Without a script every task runs in the calling thread.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { isMainThread, Worker } from 'node:worker_threads';
import type { StudioError } from '../../../shared/result';
import { cancelledFailure, StudioFailure } from '../platform/errors';
import { AsyncResource } from 'node:async_hooks';
import { nativeSqliteRoot } from '../platform/native-root';
import type { TaskInput, TaskName, TaskOutput, TaskRegistry } from '../tasks/registry';
import type { TaskContext, TaskEvent } from './task-types';

/** The async context workers are made in: this module's load, before any request (see `spawn`). */
const POOL_SCOPE = new AsyncResource('memory-studio-pool');

const WORKER_FILE = 'worker-main.js';
/** Idle workers are ended after this long, so a big parse's heap does not stay around. */
const IDLE_MS = 30_000;
/**
 * How long a worker asked to stop may take to reach its next await. Past that it is terminated from here. CI saw Node
 * 20 abort a whole test process inside a pool worker's fs open (`node_file.cc` OpenFileHandle: "Assertion failed:
 * (argc) == (5)"), which that check reaches when the worker's isolate is being torn down mid-call; a worker that exits
 * itself from its message handler is never inside such a call, so termination from outside is only the last resort
 * for a task stuck in synchronous work.
 */
const STOP_GRACE_MS = 10_000;

export interface ShutdownOptions {
  /**
   * How long each worker may take to end itself before it is terminated, and then how long its termination is waited
   * for. The default (10 s) is the safe one; a host stopping on Ctrl+C passes a short one, and ends the process itself
   * when a worker is still there (a thread blocked in a system call survives termination and would hold the exit).
   */
  graceMs?: number;
}

export interface RunOptions {
  signal?: AbortSignal;
  onEvent?: (event: TaskEvent) => void;
  /** Told why, when a read-only task ran in this thread because its worker could not start or died. */
  onFallback?: (why: string) => void;
}

export type WorkerReply =
  | { type: 'event'; id: number; event: TaskEvent }
  | { type: 'done'; id: number; value: unknown }
  | { type: 'error'; id: number; error: StudioError; cancelled: boolean; code?: string };

export type WorkerRequest = RunRequest | { type: 'exit' };

export interface RunRequest {
  type: 'run';
  id: number;
  name: TaskName;
  input: unknown;
  /** One Int32: 1 once the caller cancelled. Shared, so a busy task sees it without reading messages. */
  flag: SharedArrayBuffer;
}

/** The worker script the environment names (the tests' bundle of the sources), else the compiled one; null when none exists. */
export function resolvePoolScript(): string | null {
  const named = process.env.MEMORY_STUDIO_POOL_SCRIPT;
  if (named) return existsSync(named) ? named : null;
  const compiled = join(__dirname, '..', 'tasks', WORKER_FILE);
  return existsSync(compiled) ? compiled : null;
}

let registry: TaskRegistry | null = null;

/** Sets what each task name runs in this thread (the worker thread and every host call it through installTasks). */
export function provideTaskRegistry(tasks: TaskRegistry): void {
  registry = tasks;
}

function taskSpec<N extends TaskName>(name: N): TaskRegistry[N] {
  if (!registry)
    throw new StudioFailure('Internal', `No task registry in this thread, so "${name}" cannot run.`, {
      hint: 'This is a bug: the host must call installTasks() before it runs anything.',
    });
  return registry[name];
}

/** Leaves a core for the main loop, never fewer than two workers (a cold index build beside a parse), at most four. */
export function defaultPoolSize(): number {
  return Math.max(2, Math.min(4, availableParallelism() - 1));
}

export { cancelledFailure };

/** The worker's failure rebuilt here; the error code (SQLITE_FULL, ENOSPC…) survives so callers can tell what went wrong. */
const fromError = (error: StudioError, code?: string) =>
  Object.assign(
    new StudioFailure(error.kind, error.message, { path: error.path, hint: error.hint, fault: error.fault }),
    code ? { code } : {},
  );

/** Runs a task in this thread: the tests' path from sources, nested calls inside a worker, and the fallback. */
export async function runInThread<N extends TaskName>(name: N, input: TaskInput<N>, options: RunOptions = {}): Promise<TaskOutput<N>> {
  const signal = options.signal;
  if (signal?.aborted) throw cancelledFailure(signal);
  const context: TaskContext = {
    cancelled: () => signal?.aborted === true,
    throwIfCancelled: () => {
      if (signal?.aborted) throw cancelledFailure(signal);
    },
    emit: (event) => options.onEvent?.(event),
  };
  const handler = (await taskSpec(name).load()) as unknown as (
    input: TaskInput<N>,
    context: TaskContext,
  ) => Promise<TaskOutput<N>> | TaskOutput<N>;
  return handler(input, context);
}

interface Job {
  id: number;
  name: TaskName;
  input: unknown;
  options: RunOptions;
  flag: Int32Array;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  idle: NodeJS.Timeout | null;
  /** Settles once the thread has ended, whichever way. */
  exited: Promise<void>;
  ended: boolean;
}

/** True once `slot` has ended, false if it is still there after `ms` (the timer never holds the process open). */
function endedWithin(slot: Slot, ms: number): Promise<boolean> {
  if (slot.ended) return Promise.resolve(true);
  return new Promise((resolveWait) => {
    const timer = setTimeout(() => resolveWait(slot.ended), ms);
    timer.unref();
    void slot.exited.then(() => {
      clearTimeout(timer);
      resolveWait(true);
    });
  });
}

/**
 * Asks the worker to end itself at its next await (see STOP_GRACE_MS), terminating it only if it does not within the
 * grace period. True once the thread has ended; false when it is still there after its termination was waited for
 * as long again (a thread blocked in a system call, which termination cannot reach).
 */
async function stopWorker(slot: Slot, graceMs = STOP_GRACE_MS): Promise<boolean> {
  try {
    slot.worker.postMessage({ type: 'exit' } satisfies WorkerRequest);
  } catch {
    void slot.worker.terminate().catch(() => undefined); // the port is already closed: the thread is ending anyway
  }
  if (await endedWithin(slot, graceMs)) return true;
  void slot.worker.terminate().catch(() => undefined);
  return endedWithin(slot, graceMs);
}

class WorkerPool {
  private readonly slots: Slot[] = [];
  /** Workers asked to stop (a cancelled task's) that have not ended yet: close() hurries them too. */
  private readonly stopping = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  spawned = 0;

  constructor(
    private readonly script: string,
    readonly size: number,
  ) {}

  run(name: TaskName, input: unknown, options: RunOptions): Promise<unknown> {
    return new Promise((resolvePromise, rejectPromise) => {
      const job: Job = {
        id: this.nextId++,
        name,
        input,
        // A worker's messages arrive in the async context that spawned it (another caller's, perhaps): the job's
        // callbacks run in their own caller's, so what they print goes where that caller's output goes.
        options: {
          ...options,
          onEvent: options.onEvent && AsyncResource.bind(options.onEvent),
          onFallback: options.onFallback && AsyncResource.bind(options.onFallback),
        },
        flag: new Int32Array(new SharedArrayBuffer(4)),
        resolve: resolvePromise,
        reject: rejectPromise,
      };
      if (options.signal) {
        job.onAbort = () => this.cancel(job);
        options.signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  get busy(): number {
    return this.slots.filter((s) => s.job).length;
  }

  get queued(): number {
    return this.queue.length;
  }

  private finish(job: Job): void {
    if (job.onAbort) job.options.signal?.removeEventListener('abort', job.onAbort);
  }

  private cancel(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.finish(job);
      job.reject(cancelledFailure(job.options.signal));
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (!slot) return;
    Atomics.store(job.flag, 0, 1);
    if (taskSpec(job.name).cooperative) return; // it stops itself at its next step and answers "cancelled"
    this.drop(slot);
    this.finish(job);
    job.reject(cancelledFailure(job.options.signal));
    this.pump();
  }

  private drop(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    if (slot.idle) clearTimeout(slot.idle);
    slot.job = null;
    this.stopping.add(slot);
    void stopWorker(slot);
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift() as Job;
      if (slot.idle) clearTimeout(slot.idle);
      slot.idle = null;
      slot.job = job;
      slot.worker.ref();
      const request: RunRequest = { type: 'run', id: job.id, name: job.name, input: job.input, flag: job.flag.buffer as SharedArrayBuffer };
      slot.worker.postMessage(request);
    }
  }

  private settle(slot: Slot): Job | null {
    const job = slot.job;
    slot.job = null;
    slot.worker.unref();
    slot.idle = setTimeout(() => this.drop(slot), IDLE_MS);
    slot.idle.unref();
    if (job) this.finish(job);
    this.pump();
    return job;
  }

  private spawn(): Slot {
    // Made in the pool's own async context, whichever request asked first: a worker's messages and the timers they
    // arm belong to no request (a keeper's client, whose output context would otherwise outlive its command).
    return POOL_SCOPE.runInAsyncScope(() => this.spawnHere());
  }

  private spawnHere(): Slot {
    // In Electron a worker must load the Electron build of better-sqlite3 too: it is told where the package is.
    const worker = new Worker(this.script, { workerData: { sqlitePackageRoot: nativeSqliteRoot() } });
    const exited = new Promise<void>((resolveExit) => worker.once('exit', () => resolveExit()));
    const slot: Slot = { worker, job: null, idle: null, exited, ended: false };
    void exited.then(() => {
      slot.ended = true;
      this.stopping.delete(slot);
    });
    this.spawned++;
    slot.worker.on('message', (reply: WorkerReply) => {
      const job = slot.job;
      if (!job || reply.id !== job.id) return;
      if (reply.type === 'event') return job.options.onEvent?.(reply.event);
      this.settle(slot);
      if (reply.type === 'done') job.resolve(reply.value);
      else job.reject(reply.cancelled ? cancelledFailure(job.options.signal) : fromError(reply.error, reply.code));
    });
    const crashed = (why: string) => {
      const job = slot.job;
      this.drop(slot);
      if (job) {
        this.finish(job);
        if (taskSpec(job.name).fallback && !job.options.signal?.aborted) {
          job.options.onFallback?.(`the worker stopped (${why})`);
          runInThread(job.name, job.input as never, job.options).then(job.resolve, job.reject);
        } else
          job.reject(
            new StudioFailure('Internal', `A background worker stopped unexpectedly (${why}) while running "${job.name}".`, {
              hint: 'Try again; if it keeps failing, restart Memory Studio.',
            }),
          );
      }
      this.pump();
    };
    slot.worker.on('error', (error) => crashed(error.message));
    slot.worker.on('exit', (code) => {
      if (this.slots.includes(slot)) crashed(`exit code ${code}`);
    });
    this.slots.push(slot);
    return slot;
  }

  /** Refuses what is queued or running and ends every worker; resolves with how many are still there (stuck). */
  async close(graceMs?: number): Promise<number> {
    const closing = () => new StudioFailure('Cancelled', 'Memory Studio is closing; the work was not finished.');
    for (const job of this.queue.splice(0)) job.reject(closing());
    const slots = [...this.slots.splice(0), ...this.stopping];
    for (const slot of slots) {
      if (slot.idle) clearTimeout(slot.idle);
      if (!slot.job) continue;
      this.finish(slot.job);
      slot.job.reject(closing());
      slot.job = null;
    }
    const ended = await Promise.all(slots.map((s) => stopWorker(s, graceMs)));
    return ended.filter((e) => !e).length;
  }
}

let pool: WorkerPool | null = null;
let settings: { script?: string | null; size?: number } = {};

/**
 * Overrides the worker script (null: run every task in the calling thread) and the pool size; `{}` restores the
 * defaults. Ends the current workers so the next task uses the new settings.
 */
export async function configureWorkerPool(next: { script?: string | null; size?: number }): Promise<void> {
  await shutdownWorkerPool();
  settings = { ...next };
}

function getPool(): WorkerPool | null {
  if (pool) return pool;
  const script = settings.script !== undefined ? settings.script : resolvePoolScript();
  if (!script) return null;
  pool = new WorkerPool(script, settings.size ?? defaultPoolSize());
  return pool;
}

/** True when tasks would run on worker threads (a compiled worker exists and this is the main thread). */
export function poolAvailable(): boolean {
  return isMainThread && getPool() !== null;
}

/** Runs `name` on the pool (inside a worker, or without a compiled worker, in this thread). Rejects on cancel. */
export function runTask<N extends TaskName>(name: N, input: TaskInput<N>, options: RunOptions = {}): Promise<TaskOutput<N>> {
  const workers = isMainThread ? getPool() : null;
  if (!workers) return runInThread(name, input, options);
  if (options.signal?.aborted) return Promise.reject(cancelledFailure(options.signal));
  return workers.run(name, input, options) as Promise<TaskOutput<N>>;
}

export function workerPoolStats(): { size: number; busy: number; queued: number; spawned: number } {
  return pool
    ? { size: pool.size, busy: pool.busy, queued: pool.queued, spawned: pool.spawned }
    : { size: settings.size ?? defaultPoolSize(), busy: 0, queued: 0, spawned: 0 };
}

/**
 * Ends every worker (tests, app shutdown); queued tasks are refused. The next task starts new workers. Resolves with
 * the number of workers still there after their termination (see ShutdownOptions): 0 unless a thread is stuck.
 */
export async function shutdownWorkerPool(options: ShutdownOptions = {}): Promise<{ stuck: number }> {
  const current = pool;
  pool = null;
  return { stuck: (await current?.close(options.graceMs)) ?? 0 };
}
