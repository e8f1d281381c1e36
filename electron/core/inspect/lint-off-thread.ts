// Runs a root's lint on a worker thread (two roots lint in parallel on two cores; the main loop stays free).
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { FileList, MemoryVersion } from '../../../shared/domain';
import type { ErrorKind } from '../../../shared/result';
import type { LintReport } from '../../../shared/lint';
import { StudioFailure } from '../errors';
import { lintRoot } from '../lint';
import { parserLintRule } from './parser-lint';

const WORKER_FILE = 'lint-worker.js';

/**
 * The compiled worker beside this module, or under <repo>/out/ when running from TypeScript sources (tests);
 * null when neither exists, and then the lint runs in the calling thread.
 */
function workerScript(): string | null {
  const candidates = [join(__dirname, WORKER_FILE), resolve(__dirname, '..', '..', '..', 'out', 'electron', 'core', 'inspect', WORKER_FILE)];
  return candidates.find((p) => existsSync(p)) ?? null;
}

type Reply = { ok: true; report: LintReport } | { ok: false; error: { message: string; kind?: ErrorKind; path?: string; hint?: string } };

export async function lintRootOffThread(root: string, version: MemoryVersion, maxUnusedDays: number, list?: FileList): Promise<LintReport> {
  const script = workerScript();
  if (!script) return lintRoot(root, version, { maxUnusedDays, extraRules: [parserLintRule], list });
  const reply = await new Promise<Reply>((resolvePromise, reject) => {
    const worker = new Worker(script, { workerData: { root, version, maxUnusedDays } });
    worker.once('message', (message: Reply) => {
      resolvePromise(message);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the lint worker stopped with exit code ${code}`));
    });
  }).catch(async () =>
    // A worker that cannot start (or dies) must not cost the person their lint: do it here instead.
    ({ ok: true, report: await lintRoot(root, version, { maxUnusedDays, extraRules: [parserLintRule], list }) }) as Reply,
  );
  if (reply.ok) return reply.report;
  throw new StudioFailure(reply.error.kind ?? 'Internal', reply.error.message, { path: reply.error.path, hint: reply.error.hint });
}
