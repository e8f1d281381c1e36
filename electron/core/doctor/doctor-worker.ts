// Worker-thread entry: reads and analyses a home's memory files (parsing, similarity, AGENTS.md overlap) off the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeHome, type AnalyzeInput } from './analyze';

analyzeHome(workerData as AnalyzeInput).then(
  (analysis) => parentPort?.postMessage({ ok: true, analysis }),
  (error: unknown) => parentPort?.postMessage({ ok: false, error: { message: (error as Error).message, kind: (error as { kind?: string }).kind, path: (error as { path?: string }).path, hint: (error as { hint?: string }).hint } }),
);
