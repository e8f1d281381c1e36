// The parse task the shared worker pool runs: a text, or a file read in the worker itself.
import type { ParsedFile } from '../../../shared/formats';
import { parseMemoryFile } from './index';
import type { ParseOptions } from './index';
import { parseFileInThread } from './read-file';

export type ParseTaskInput = { options: ParseOptions } & ({ text: string } | { absPath: string });

/** Parses in whichever thread runs it; I/O failures (a missing file) reject, content never does. */
export async function parseTask(input: ParseTaskInput): Promise<ParsedFile> {
  return 'text' in input ? parseMemoryFile(input.text, input.options) : parseFileInThread(input.absPath, input.options);
}
