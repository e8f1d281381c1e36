// Hunks of large file pairs on a worker thread; small ones (the common case) stay on the calling thread.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Hunk } from '../../../shared/review';
import { computeFileHunks } from './hunks';

/** Above this many characters (both sides together) the diff moves off the calling thread. */
export const OFF_THREAD_CHARS = 1 << 20;
const WORKER_FILE = 'hunks-worker.js';

function workerScript(): string | null {
  const candidates = [join(__dirname, WORKER_FILE), resolve(__dirname, '..', '..', '..', 'out', 'electron', 'core', 'review', WORKER_FILE)];
  return candidates.find((p) => existsSync(p)) ?? null;
}

export async function computeFileHunksAsync(base: string | null, proposed: string | null): Promise<Hunk[]> {
  const size = (base?.length ?? 0) + (proposed?.length ?? 0);
  const script = size > OFF_THREAD_CHARS ? workerScript() : null;
  if (!script || base === null || proposed === null) return computeFileHunks(base, proposed);
  return new Promise<Hunk[]>((resolvePromise, reject) => {
    const worker = new Worker(script, { workerData: { base, proposed } });
    worker.once('message', (hunks: Hunk[]) => {
      resolvePromise(hunks);
      void worker.terminate();
    });
    worker.once('error', reject);
  }).catch(() => computeFileHunks(base, proposed));
}
