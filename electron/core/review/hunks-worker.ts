// Worker-thread entry: the hunks of one large file pair, so a 5 MB rewrite never stalls the main loop.
import { parentPort, workerData } from 'node:worker_threads';
import { computeFileHunks } from './hunks';

const { base, proposed } = workerData as { base: string | null; proposed: string | null };
parentPort?.postMessage(computeFileHunks(base, proposed));
