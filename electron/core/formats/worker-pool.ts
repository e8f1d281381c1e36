// Parses big memory files (over 1 MiB) on worker threads so the main process stays responsive (conventions 12).
//
// Worker script: the compiled `parse-worker.js`. From compiled code (out/electron/core/formats/) it is the sibling
// file; from the TypeScript sources (vitest) it is the same file under `<repo>/out/`, so `npm run build:node` must
// have run. Plain Node cannot run a `.ts` worker and we register no loader: when no compiled worker exists, the
// parse runs in the calling thread and the result says so (`ranIn: 'thread'` with a note).
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ParsedFile } from '../../../shared/formats';
import { parseMemoryFile, type ParseOptions } from './index';
import { parseFileInThread } from './read-file';
import type { ParsePayload, ParseReply, ParseRequest } from './worker-protocol';

/** Inputs above this many bytes go to a worker; smaller ones parse faster in place than a message round trip. */
export const OFF_THREAD_THRESHOLD_BYTES = 1024 * 1024;
const WORKER_FILE = 'parse-worker.js';

export interface OffThreadOptions extends ParseOptions {
  /** Override the 1 MiB threshold (0 sends everything to a worker; tests use it). */
  thresholdBytes?: number;
}

export interface OffThreadResult {
  parsed: ParsedFile;
  ranIn: 'worker' | 'thread';
  /** Why a big input was parsed in the calling thread (no compiled worker, or the worker failed). */
  note: string | null;
}

/** Where the compiled worker script is, or null (then parsing happens in the calling thread). */
export function resolveWorkerScript(): string | null {
  const candidates = [join(__dirname, WORKER_FILE), resolve(__dirname, '..', '..', '..', 'out', 'electron', 'core', 'formats', WORKER_FILE)];
  return candidates.find((p) => existsSync(p)) ?? null;
}

interface Job {
  request: ParseRequest;
  resolve: (reply: ParseReply) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

/** A small pool of parse workers, created on demand; idle workers are unref'd so they never keep the process alive. */
class ParsePool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;

  constructor(
    private readonly script: string,
    private readonly size: number,
  ) {}

  run(request: ParsePayload): Promise<ParseReply> {
    return new Promise((resolveReply) => {
      this.queue.push({ request: { ...request, id: this.nextId++ }, resolve: resolveReply });
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = this.slots.find((s) => s.job === null);
      if (!slot && this.slots.length < this.size) slot = this.spawn();
      if (!slot) return;
      const job = this.queue.shift() as Job;
      slot.job = job;
      slot.worker.ref();
      slot.worker.postMessage(job.request);
    }
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(this.script), job: null };
    slot.worker.on('message', (reply: ParseReply) => {
      const job = slot.job;
      slot.job = null;
      slot.worker.unref();
      job?.resolve(reply);
      this.pump();
    });
    const fail = (message: string): void => {
      const index = this.slots.indexOf(slot);
      if (index >= 0) this.slots.splice(index, 1);
      slot.job?.resolve({ id: slot.job.request.id, ok: false, message });
      slot.job = null;
      this.pump();
    };
    slot.worker.on('error', (error) => fail(`parse worker failed: ${error.message}`));
    slot.worker.on('exit', (code) => fail(`parse worker exited with code ${code}`));
    this.slots.push(slot);
    return slot;
  }

  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}

let pool: ParsePool | null = null;
let settings: { script?: string | null; size?: number } = {};

/**
 * Overrides the worker script (null = no worker: parse in the calling thread) and the pool size; `{}` restores the
 * defaults. Terminates the current workers so the next parse uses the new settings.
 */
export async function configureParseWorkers(next: { script?: string | null; size?: number }): Promise<void> {
  await shutdownParseWorkers();
  settings = { ...next };
}

function getPool(): ParsePool | null {
  if (pool) return pool;
  const script = settings.script !== undefined ? settings.script : resolveWorkerScript();
  if (!script) return null;
  pool = new ParsePool(script, settings.size ?? Math.max(1, Math.min(4, availableParallelism() - 1)));
  return pool;
}

const NO_WORKER_NOTE = `No compiled parse worker (${WORKER_FILE}) was found; run "npm run build:node". Parsed in the calling thread.`;

function optionsOnly(options: OffThreadOptions): ParseOptions {
  const { thresholdBytes: _threshold, ...rest } = options;
  return rest;
}

/** Like `parseMemoryFileInWorker`, and says where the parse ran. */
export async function parseTextOffThread(text: string, options: OffThreadOptions): Promise<OffThreadResult> {
  const threshold = options.thresholdBytes ?? OFF_THREAD_THRESHOLD_BYTES;
  const parseOptions = optionsOnly(options);
  // UTF-16 length is a cheap lower bound of the UTF-8 size; exact bytes only matter near the threshold.
  if (text.length <= threshold && Buffer.byteLength(text, 'utf8') <= threshold) return { parsed: parseMemoryFile(text, parseOptions), ranIn: 'thread', note: null };
  const workers = getPool();
  if (!workers) return { parsed: parseMemoryFile(text, parseOptions), ranIn: 'thread', note: NO_WORKER_NOTE };
  const reply = await workers.run({ text, options: parseOptions });
  if (reply.ok) return { parsed: reply.parsed, ranIn: 'worker', note: null };
  return { parsed: parseMemoryFile(text, parseOptions), ranIn: 'thread', note: `${reply.message}; parsed in the calling thread.` };
}

/** Parses `text`, on a worker thread when it is over 1 MiB. Never rejects on content. */
export async function parseMemoryFileInWorker(text: string, options: OffThreadOptions): Promise<ParsedFile> {
  return (await parseTextOffThread(text, options)).parsed;
}

/** Reads and parses a file, on a worker thread when it is over 1 MiB (the worker reads it itself). Rejects only on I/O errors. */
export async function parseFileOffThreadDetailed(absPath: string, options: OffThreadOptions): Promise<OffThreadResult> {
  const threshold = options.thresholdBytes ?? OFF_THREAD_THRESHOLD_BYTES;
  const parseOptions = optionsOnly(options);
  const info = await stat(absPath);
  if (info.size <= threshold) return { parsed: await parseFileInThread(absPath, parseOptions), ranIn: 'thread', note: null };
  const workers = getPool();
  if (!workers) return { parsed: await parseFileInThread(absPath, parseOptions), ranIn: 'thread', note: NO_WORKER_NOTE };
  const reply = await workers.run({ absPath, options: parseOptions });
  if (reply.ok) return { parsed: reply.parsed, ranIn: 'worker', note: null };
  return { parsed: await parseFileInThread(absPath, parseOptions), ranIn: 'thread', note: `${reply.message}; parsed in the calling thread.` };
}

export async function parseFileOffThread(absPath: string, options: OffThreadOptions): Promise<ParsedFile> {
  return (await parseFileOffThreadDetailed(absPath, options)).parsed;
}

/** Terminates the pool's workers (tests and app shutdown); the next call starts new ones. */
export async function shutdownParseWorkers(): Promise<void> {
  const current = pool;
  pool = null;
  await current?.close();
}
