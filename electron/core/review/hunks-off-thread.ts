// Hunks and block outlines of large file pairs on a worker thread; small ones (the common case) stay on the calling thread.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FileBlocks, Hunk } from '../../../shared/review';
import { type BlockFile, computeFileBlocks, computeReviewHunks } from './review-hunks';

/** Above this many characters (both sides together) the diff moves off the calling thread. */
export const OFF_THREAD_CHARS = 1 << 20;
const WORKER_FILE = 'hunks-worker.js';

function workerScript(): string | null {
  const candidates = [join(__dirname, WORKER_FILE), resolve(__dirname, '..', '..', '..', 'out', 'electron', 'core', 'review', WORKER_FILE)];
  return candidates.find((p) => existsSync(p)) ?? null;
}

/** Runs `job` on a one-off worker when the texts are large and a compiled worker exists, else `inThread()` here. */
function offThread<T>(job: object, size: number, inThread: () => T): Promise<T> {
  const script = size > OFF_THREAD_CHARS ? workerScript() : null;
  if (!script) return Promise.resolve().then(inThread);
  return new Promise<T>((resolvePromise, reject) => {
    const worker = new Worker(script, { workerData: job });
    worker.once('message', (value: T) => {
      resolvePromise(value);
      void worker.terminate();
    });
    worker.once('error', reject);
  }).catch(inThread);
}

const sizeOf = (base: string | null, proposed: string | null) => (base?.length ?? 0) + (proposed?.length ?? 0);

/** `computeReviewHunks` off the calling thread for large files. */
export function computeFileHunksAsync(base: string | null, proposed: string | null, file?: BlockFile): Promise<Hunk[]> {
  if (base === null || proposed === null) return Promise.resolve(computeReviewHunks(base, proposed, file));
  return offThread({ op: 'hunks', base, proposed, file }, sizeOf(base, proposed), () => computeReviewHunks(base, proposed, file));
}

/** `computeFileBlocks` off the calling thread for large files. */
export function computeFileBlocksAsync(base: string | null, proposed: string | null, file: BlockFile, hunks: readonly Hunk[]): Promise<FileBlocks> {
  return offThread({ op: 'blocks', base, proposed, file, hunks }, sizeOf(base, proposed), () => computeFileBlocks(base, proposed, file, hunks));
}
