// Brings the index up to date: the stat-only scan, then the changed files in batches, in this thread or on the pool.
import type Database from 'better-sqlite3';
import type { TaskContext } from '../runtime/task-types';
import { cancelledFailure, poolAvailable, runTask, workerPoolStats } from '../runtime/pool';
import { indexScan, indexUpdate, threadConnection, type IndexScanInput, type IndexScanResult, type IndexUpdateInput } from './tasks';

export interface RefreshHooks {
  signal?: AbortSignal;
  /** Files done and to do, when there is anything to do. */
  onProgress?: (done: number, total: number) => void;
  /** Run the scan on a pool worker (the app) rather than in this thread (the CLI, where sync calls are fastest). */
  scanOnPool?: boolean;
  /** This thread's connection, for work done here. */
  db?: Database.Database;
}

export interface Refreshed {
  scan: IndexScanResult;
  /** Files and sessions read and analysed again. */
  analyzed: number;
}

/**
 * Files per write transaction (or 4 MiB, whichever comes first). FTS5 flushes its pending terms at every commit into a
 * new segment it later merges, so a first build of 8,218 files wrote ~9% faster in batches of 400 than of 100; larger
 * ones gained nothing more. A cancelled batch is dropped whole, and its files are read again next time.
 */
export const BATCH_FILES = 400;
/** The smallest batch a root's files are cut into for the pool's lanes (100 was the old size, ~9% slower at scale). */
const MIN_BATCH_FILES = 100;
const BATCH_BYTES = 4 * 1024 * 1024;
const SESSION_BATCH = 400;
/** Below this much work a worker's start-up costs more than it saves. */
const IN_THREAD_FILES = 48;
const IN_THREAD_BYTES = 1024 * 1024;

type Batch = { input: IndexUpdateInput; files: number; bytes: number };

function planBatches(input: IndexScanInput, scan: IndexScanResult, lanes: number): Batch[] {
  const batches: Batch[] = [];
  for (const root of scan.roots) {
    if (!('list' in root)) continue;
    const sizes = new Map(root.list.files.map((f) => [f.path, f.size]));
    const rootPath = input.roots.find((r) => r.version === root.version)?.path as string;
    let paths: string[] = [];
    let bytes = 0;
    const flush = () => {
      if (paths.length > 0)
        batches.push({
          input: { dbPath: input.dbPath, options: input.options, version: root.version, root: rootPath, paths },
          files: paths.length,
          bytes,
        });
      paths = [];
      bytes = 0;
    };
    // A root's changed files are cut into at least as many batches as the pool has lanes, down to MIN_BATCH_FILES each:
    // 101-800 changed files must not all go to one worker (the sessions keep their own batches).
    const perBatch = Math.min(BATCH_FILES, Math.max(MIN_BATCH_FILES, Math.ceil(root.changed.length / lanes)));
    for (const path of root.changed) {
      paths.push(path);
      bytes += sizes.get(path) ?? 0;
      if (paths.length >= perBatch || bytes >= BATCH_BYTES) flush();
    }
    flush();
  }
  const { changed, stamps } = scan.sessions;
  for (let i = 0; i < changed.length; i += SESSION_BATCH) {
    const sessions = changed.slice(i, i + SESSION_BATCH);
    const batchStamps = new Map(
      sessions
        .map((s) => [s.path, stamps.get(s.path)])
        .filter((e): e is [string, NonNullable<ReturnType<typeof stamps.get>>] => e[1] !== undefined),
    );
    batches.push({
      input: { dbPath: input.dbPath, options: input.options, sessions, stamps: batchStamps },
      files: sessions.length,
      bytes: sessions.reduce((n, s) => n + (stamps.get(s.path)?.size ?? 0), 0),
    });
  }
  return batches;
}

function contextFor(signal: AbortSignal | undefined, onDone: (n: number) => void): TaskContext {
  return {
    cancelled: () => signal?.aborted === true,
    throwIfCancelled: () => {
      if (signal?.aborted) throw cancelledFailure(signal);
    },
    emit: (event) => {
      if (event.type === 'progress' && event.done) onDone(event.done);
    },
  };
}

async function scanOf(input: IndexScanInput, hooks: RefreshHooks, local: () => Database.Database): Promise<IndexScanResult> {
  const { signal } = hooks;
  if (hooks.scanOnPool && poolAvailable()) return runTask('index-scan', input, { signal });
  return indexScan(local(), input);
}

/** Scans, then re-analyses what changed; rejects with the cancel failure when `signal` fires (written batches stay). */
export async function refreshIndex(input: IndexScanInput, hooks: RefreshHooks = {}): Promise<Refreshed> {
  const { signal } = hooks;
  const local = () => hooks.db ?? threadConnection(input.dbPath, input.options);
  const scan = await scanOf(input, hooks, local);
  const whole = planBatches(input, scan, 1);
  const total = whole.reduce((n, b) => n + b.files, 0);
  if (total === 0) return { scan, analyzed: 0 };
  const bytes = whole.reduce((n, b) => n + b.bytes, 0);
  const inThread = (total <= IN_THREAD_FILES && bytes <= IN_THREAD_BYTES) || !poolAvailable();
  // On the pool, each root's files are cut for every worker to have a batch; in this thread, fewer transactions are better.
  const batches = inThread ? whole : planBatches(input, scan, workerPoolStats().size);
  let done = 0;
  const advance = (n: number) => {
    done += n;
    hooks.onProgress?.(Math.min(done, total), total);
  };
  hooks.onProgress?.(0, total);
  if (inThread) {
    for (const batch of batches) await indexUpdate(local(), batch.input, contextFor(signal, advance));
    return { scan, analyzed: total };
  }
  const queue = [...batches];
  const lane = async () => {
    for (let batch = queue.shift(); batch; batch = queue.shift()) {
      if (signal?.aborted) throw cancelledFailure(signal);
      try {
        await runTask('index-update', batch.input, {
          signal,
          onEvent: (event) => event.type === 'progress' && event.done && advance(event.done),
        });
      } catch (error) {
        queue.length = 0; // one lane's failure (a full disk) ends the others after their current batch
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(workerPoolStats().size, queue.length) }, lane));
  return { scan, analyzed: total };
}
