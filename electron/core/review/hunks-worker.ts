// Worker-thread entry: the hunks (or the block outline) of one large file pair, so a 5 MB rewrite never stalls the main loop.
import { parentPort, workerData } from 'node:worker_threads';
import type { Hunk } from '../../../shared/review';
import { type BlockFile, computeFileBlocks, computeReviewHunks } from './review-hunks';

const job = workerData as { op: 'hunks' | 'blocks'; base: string | null; proposed: string | null; file?: BlockFile; hunks?: Hunk[] };
if (job.op === 'blocks' && job.file) parentPort?.postMessage(computeFileBlocks(job.base, job.proposed, job.file, job.hunks ?? []));
else parentPort?.postMessage(computeReviewHunks(job.base, job.proposed, job.file));
