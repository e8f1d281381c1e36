// Worker-thread entry: validates a staged result (lint of a multi-megabyte MEMORY.md stalled the main loop ~250 ms).
import { parentPort, workerData } from 'node:worker_threads';
import type { MemoryVersion } from '../../../shared/domain';
import { toStudioError } from '../errors';
import { validateStaged } from './validate';

const job = workerData as { stagingRoot: string; version: MemoryVersion; only?: Set<string> };
validateStaged(job.stagingRoot, job.version, { only: job.only }).then(
  (validation) => parentPort?.postMessage({ ok: true, validation }),
  (error: unknown) => parentPort?.postMessage({ ok: false, error: toStudioError(error) }),
);
