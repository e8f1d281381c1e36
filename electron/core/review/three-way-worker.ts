// Worker-thread entry: the three-way merge of one large file, so rebasing a 5 MB MEMORY.md never stalls the main loop.
import { parentPort, workerData } from 'node:worker_threads';
import { threeWay } from './three-way';

const { base, theirs, ours } = workerData as { base: string | null; theirs: string | null; ours: string | null };
parentPort?.postMessage(threeWay(base, theirs, ours));
