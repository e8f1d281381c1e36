// Messages between worker-pool.ts and the parse worker, and the worker's request handler.
import type { ParsedFile } from '../../../shared/formats';
import { parseMemoryFile, type ParseOptions } from './index';
import { parseFileInThread } from './read-file';

export type ParsePayload = { options: ParseOptions } & ({ text: string } | { absPath: string });
export type ParseRequest = ParsePayload & { id: number };
export type ParseReply = { id: number; ok: true; parsed: ParsedFile } | { id: number; ok: false; message: string };

/** Serves one request inside the worker; I/O failures come back as `ok: false`, never as a crash. */
export async function handleParseRequest(request: ParseRequest): Promise<ParseReply> {
  try {
    const parsed = 'text' in request ? parseMemoryFile(request.text, request.options) : await parseFileInThread(request.absPath, request.options);
    return { id: request.id, ok: true, parsed };
  } catch (error) {
    return { id: request.id, ok: false, message: (error as Error).message };
  }
}
