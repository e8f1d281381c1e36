// Worker-thread entry of the builtin engine: the whole rebuild runs here so the app's main loop stays responsive.
import { parentPort, workerData } from 'node:worker_threads';
import type { EngineSettings } from '../../../shared/consolidate';
import type { MemoryVersion } from '../../../shared/domain';
import { toStudioError } from '../errors';
import { builtinEngine } from './engines/builtin';

interface Job {
  stagingRoot: string;
  version: MemoryVersion;
  settings: EngineSettings;
  instructions: string;
}

async function main(job: Job): Promise<void> {
  const port = parentPort;
  if (!port) return;
  try {
    const result = await builtinEngine({
      ...job,
      signal: new AbortController().signal, // the parent cancels by terminating this thread
      progress: (message, fraction) => port.postMessage({ type: 'progress', message, fraction }),
      log: (line) => port.postMessage({ type: 'log', line }),
      env: {},
    });
    port.postMessage({ type: 'done', result });
  } catch (error) {
    port.postMessage({ type: 'error', error: toStudioError(error) });
  }
}

void main(workerData as Job);
