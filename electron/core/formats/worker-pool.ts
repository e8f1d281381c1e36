// Parses big memory files (over 256 KiB) on the shared worker pool so the main process stays responsive.
//
// Without a compiled pool worker (tests from sources before a build) the parse runs in the calling thread and the
// result says so (`ranIn: 'thread'` with a note).
import { stat } from 'node:fs/promises';
import type { ParsedFile } from '../../../shared/formats';
import { configureWorkerPool, poolAvailable, resolvePoolScript, runTask, shutdownWorkerPool } from '../runtime/pool';
import { parseMemoryFile, type ParseOptions } from './index';
import { parseFileInThread } from './read-file';

/** Inputs above this many bytes go to a worker (about 20 ms of parsing); smaller ones parse faster in place than a message round trip. */
export const OFF_THREAD_THRESHOLD_BYTES = 256 * 1024;

export interface OffThreadOptions extends ParseOptions {
  /** Override the 256 KiB threshold (0 sends everything to a worker; tests use it). */
  thresholdBytes?: number;
}

export interface OffThreadResult {
  parsed: ParsedFile;
  ranIn: 'worker' | 'thread';
  /** Why a big input was parsed in the calling thread (no compiled worker, or the worker failed). */
  note: string | null;
}

/** Where the compiled pool worker is, or null (then parsing happens in the calling thread). */
export const resolveWorkerScript = resolvePoolScript;

/** The shared pool's settings (script, size); kept under this name for the parse API's callers. */
export const configureParseWorkers = configureWorkerPool;
export const shutdownParseWorkers = shutdownWorkerPool;

const NO_WORKER_NOTE = 'No compiled pool worker (tasks/worker-main.js) was found; run "npm run build:node". Parsed in the calling thread.';

function optionsOnly(options: OffThreadOptions): ParseOptions {
  const { thresholdBytes: _threshold, ...rest } = options;
  return rest;
}

/** Runs the parse task on the pool and says where it ran (a dead worker falls back to this thread, with a note). */
async function onPool(input: { text: string } | { absPath: string }, options: ParseOptions): Promise<OffThreadResult> {
  if (!poolAvailable()) return { parsed: await runInPlace(input, options), ranIn: 'thread', note: NO_WORKER_NOTE };
  let fellBack: string | null = null;
  const parsed = await runTask('parse', { ...input, options }, { onFallback: (why) => (fellBack = why) });
  return fellBack === null
    ? { parsed, ranIn: 'worker', note: null }
    : { parsed, ranIn: 'thread', note: `${fellBack}; parsed in the calling thread.` };
}

const runInPlace = (input: { text: string } | { absPath: string }, options: ParseOptions) =>
  'text' in input ? Promise.resolve(parseMemoryFile(input.text, options)) : parseFileInThread(input.absPath, options);

/** Like `parseMemoryFileInWorker`, and says where the parse ran. */
export async function parseTextOffThread(text: string, options: OffThreadOptions): Promise<OffThreadResult> {
  const threshold = options.thresholdBytes ?? OFF_THREAD_THRESHOLD_BYTES;
  const parseOptions = optionsOnly(options);
  // UTF-16 length is a cheap lower bound of the UTF-8 size; exact bytes only matter near the threshold.
  if (text.length <= threshold && Buffer.byteLength(text, 'utf8') <= threshold)
    return { parsed: parseMemoryFile(text, parseOptions), ranIn: 'thread', note: null };
  return onPool({ text }, parseOptions);
}

/** Parses `text`, on a worker thread when it is over 256 KiB. Never rejects on content. */
export async function parseMemoryFileInWorker(text: string, options: OffThreadOptions): Promise<ParsedFile> {
  return (await parseTextOffThread(text, options)).parsed;
}

/** Reads and parses a file, on a worker thread when it is over 256 KiB (the worker reads it itself). Rejects only on I/O errors. */
export async function parseFileOffThreadDetailed(absPath: string, options: OffThreadOptions): Promise<OffThreadResult> {
  const threshold = options.thresholdBytes ?? OFF_THREAD_THRESHOLD_BYTES;
  const parseOptions = optionsOnly(options);
  const info = await stat(absPath);
  if (info.size <= threshold) return { parsed: await parseFileInThread(absPath, parseOptions), ranIn: 'thread', note: null };
  return onPool({ absPath }, parseOptions);
}

export async function parseFileOffThread(absPath: string, options: OffThreadOptions): Promise<ParsedFile> {
  return (await parseFileOffThreadDetailed(absPath, options)).parsed;
}
