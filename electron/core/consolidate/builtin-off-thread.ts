// Runs the builtin engine on a worker thread (falls back to this thread only when no compiled worker exists, as in tests).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { StudioError } from '../../../shared/result';
import { StudioFailure } from '../errors';
import { builtinEngine } from './engines/builtin';
import type { Engine, EngineResult } from './types';

const WORKER_FILE = 'builtin-worker.js';

function workerScript(): string | null {
  const candidates = [join(__dirname, WORKER_FILE), resolve(__dirname, '..', '..', '..', 'out', 'electron', 'core', 'consolidate', WORKER_FILE)];
  return candidates.find((p) => existsSync(p)) ?? null;
}

type Message =
  | { type: 'progress'; message: string; fraction?: number }
  | { type: 'log'; line: string }
  | { type: 'done'; result: EngineResult }
  | { type: 'error'; error: StudioError };

/** The builtin engine as an Engine: cancelling terminates the worker at once. */
export const builtinOffThread: Engine = async (run) => {
  const script = workerScript();
  if (!script) return builtinEngine(run);
  run.signal.throwIfAborted();
  const worker = new Worker(script, { workerData: { stagingRoot: run.stagingRoot, version: run.version, settings: run.settings, instructions: run.instructions } });
  return new Promise<EngineResult>((resolvePromise, reject) => {
    const onAbort = () => {
      void worker.terminate();
      reject(run.signal.reason instanceof Error ? run.signal.reason : new StudioFailure('Busy', 'The run was cancelled.'));
    };
    run.signal.addEventListener('abort', onAbort, { once: true });
    const settle = () => run.signal.removeEventListener('abort', onAbort);
    worker.on('message', (message: Message) => {
      if (message.type === 'progress') run.progress(message.message, message.fraction);
      else if (message.type === 'log') run.log(message.line);
      else {
        settle();
        void worker.terminate();
        if (message.type === 'done') resolvePromise(message.result);
        else reject(new StudioFailure(message.error.kind, message.error.message, { path: message.error.path, hint: message.error.hint }));
      }
    });
    worker.once('error', (error) => {
      settle();
      reject(new StudioFailure('Internal', `The builtin engine stopped unexpectedly: ${error.message}`, { hint: 'Try again; if it keeps failing, report it with the log.' }));
    });
  });
};
