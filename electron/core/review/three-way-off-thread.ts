// Three-way merges of large files on a worker thread; small ones (the common case) stay on the calling thread.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { OFF_THREAD_CHARS } from './hunks-off-thread';
import { type ThreeWay, threeWay } from './three-way';

const WORKER_FILE = 'three-way-worker.js';

function workerScript(): string | null {
  const candidates = [join(__dirname, WORKER_FILE), resolve(__dirname, '..', '..', '..', 'out', 'electron', 'core', 'review', WORKER_FILE)];
  return candidates.find((p) => existsSync(p)) ?? null;
}

export async function threeWayAsync(base: string | null, theirs: string | null, ours: string | null): Promise<ThreeWay> {
  const size = (base?.length ?? 0) + (theirs?.length ?? 0) + (ours?.length ?? 0);
  const script = size > OFF_THREAD_CHARS ? workerScript() : null;
  if (!script) return threeWay(base, theirs, ours);
  return new Promise<ThreeWay>((resolvePromise, reject) => {
    const worker = new Worker(script, { workerData: { base, theirs, ours } });
    worker.once('message', (result: ThreeWay) => {
      resolvePromise(result);
      void worker.terminate();
    });
    worker.once('error', reject);
  }).catch(() => threeWay(base, theirs, ours));
}
