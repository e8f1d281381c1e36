// Worker-thread entry: lints one memory root (validators, secrets, parser rules) off the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import type { MemoryVersion } from '../../../shared/domain';
import { lintRoot } from '../lint';
import { parserLintRule } from './parser-lint';

interface LintJob {
  root: string;
  version: MemoryVersion;
  maxUnusedDays: number;
}

const job = workerData as LintJob;
lintRoot(job.root, job.version, { maxUnusedDays: job.maxUnusedDays, extraRules: [parserLintRule] }).then(
  (report) => parentPort?.postMessage({ ok: true, report }),
  (error: unknown) => parentPort?.postMessage({ ok: false, error: { name: (error as Error).name, message: (error as Error).message, kind: (error as { kind?: string }).kind, path: (error as { path?: string }).path, hint: (error as { hint?: string }).hint } }),
);
