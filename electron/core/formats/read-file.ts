// Reads a memory file from disk and parses it; invalid UTF-8 is decoded leniently and reported, never thrown.
import { StudioFailure } from '../platform/errors';
import { readRegularFile } from '../platform/regular-file';
import { basename } from 'node:path';
import type { ParsedFile } from '../../../shared/formats';
import { decodeUtf8Strict, findInvalidUtf8 } from '../platform/utf8';
import { parseMemoryFile, type ParseOptions } from './index';

const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/** Parses bytes as a memory file. Invalid UTF-8 becomes U+FFFD plus a `format/invalid-utf8` warning (round trip is then to the decoded text). */
export function parseMemoryBytes(bytes: Uint8Array, options: ParseOptions): ParsedFile {
  const strict = decodeUtf8Strict(bytes);
  if (strict !== null) return parseMemoryFile(strict, options);
  const parsed = parseMemoryFile(lenientDecoder.decode(bytes), options);
  const problem = findInvalidUtf8(bytes);
  const line = Math.min(problem?.line ?? 1, Math.max(1, parsed.lineCount));
  parsed.diagnostics.push({
    severity: 'warning',
    rule: 'format/invalid-utf8',
    line,
    endLine: line,
    message: `${basename(options.path)} is not valid UTF-8 (first bad byte at offset ${problem?.byteOffset ?? '?'}); those bytes show as "\uFFFD". Codex writes UTF-8: re-save the file as UTF-8.`,
  });
  parsed.diagnostics.sort((a, b) => a.line - b.line || a.endLine - b.endLine);
  return parsed;
}

/** Files above this are not parsed (the workspace's read cap). */
const PARSE_CAP_BYTES = 16 * 1024 * 1024;

/** Reads `absPath` (a regular file only, never blocking on a FIFO) and parses it in the calling thread. Rejects only on I/O errors. */
export async function parseFileInThread(absPath: string, options: ParseOptions): Promise<ParsedFile> {
  const tooBig = (size: number) =>
    new StudioFailure('Unsupported', `${absPath} is ${size} bytes, more than the ${PARSE_CAP_BYTES} bytes Memory Studio parses.`, {
      path: absPath,
    });
  return parseMemoryBytes((await readRegularFile(absPath, absPath, PARSE_CAP_BYTES, tooBig)).bytes, options);
}
