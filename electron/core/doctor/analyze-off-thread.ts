// Runs the doctor's file analysis on a worker thread, so the app's main loop stays free while 10 MB of memory is compared.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ErrorKind } from '../../../shared/result';
import { StudioFailure } from '../errors';
import { analyzeHome, type Analysis, type AnalyzeInput } from './analyze';

const WORKER_FILE = 'doctor-worker.js';

/** The compiled worker beside this module, or under <repo>/out/ when running from TypeScript sources (tests). */
function workerScript(): string | null {
  const candidates = [join(__dirname, WORKER_FILE), resolve(__dirname, '..', '..', '..', 'out', 'electron', 'core', 'doctor', WORKER_FILE)];
  return candidates.find((p) => existsSync(p)) ?? null;
}

type Reply = { ok: true; analysis: Analysis } | { ok: false; error: { message: string; kind?: ErrorKind; path?: string; hint?: string } };

export async function analyzeHomeOffThread(input: AnalyzeInput): Promise<Analysis> {
  const script = workerScript();
  if (!script) return analyzeHome(input);
  const reply = await new Promise<Reply>((resolvePromise, reject) => {
    const worker = new Worker(script, { workerData: input });
    worker.once('message', (message: Reply) => {
      resolvePromise(message);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the doctor worker stopped with exit code ${code}`));
    });
  }).catch(async () => ({ ok: true, analysis: await analyzeHome(input) }) as Reply);
  if (reply.ok) return reply.analysis;
  throw new StudioFailure(reply.error.kind ?? 'Internal', reply.error.message, { path: reply.error.path, hint: reply.error.hint });
}
