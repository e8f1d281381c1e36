// Runs the validation of a staged result on a worker thread, or here when no compiled worker exists (tests from sources).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { MemoryVersion } from '../../../shared/domain';
import type { StudioError } from '../../../shared/result';
import { StudioFailure } from '../errors';
import type { Validation } from './types';
import { validateStaged } from './validate';

const WORKER_FILE = 'validate-worker.js';

function workerScript(): string | null {
  const candidates = [join(__dirname, WORKER_FILE), resolve(__dirname, '..', '..', '..', 'out', 'electron', 'core', 'consolidate', WORKER_FILE)];
  return candidates.find((p) => existsSync(p)) ?? null;
}

type Reply = { ok: true; validation: Validation } | { ok: false; error: StudioError };

export async function validateStagedOffThread(stagingRoot: string, version: MemoryVersion, options: { only?: ReadonlySet<string> } = {}): Promise<Validation> {
  const script = workerScript();
  if (!script) return validateStaged(stagingRoot, version, options);
  const reply = await new Promise<Reply>((resolvePromise, reject) => {
    const worker = new Worker(script, { workerData: { stagingRoot, version, only: options.only ? new Set(options.only) : undefined } });
    worker.once('message', (message: Reply) => {
      resolvePromise(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  }).catch(async () => ({ ok: true, validation: await validateStaged(stagingRoot, version, options) }) as Reply);
  if (reply.ok) return reply.validation;
  throw new StudioFailure(reply.error.kind, reply.error.message, { path: reply.error.path, hint: reply.error.hint });
}
