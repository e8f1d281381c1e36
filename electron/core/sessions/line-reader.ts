// Reads a JSONL file line by line as bytes, streaming, with a cap on how much of one line is ever held in memory.
import { createReadStream } from 'node:fs';
import { closeQuietly, NO_CAP, openRegularFile, readOpenedFile, tooBigFailure } from '../platform/regular-file';

/**
 * Called once per line: `line` is the line's bytes without `\n` (and without a trailing `\r`), or null when the
 * line is longer than the cap and was dropped while streaming. `byteLength` is the real length either way.
 */
export type LineSink = (lineNo: number, line: Buffer | null, byteLength: number) => void;

export interface ReadLinesOptions {
  /** Longest line kept; longer ones reach the sink as null. Default 16 MiB. */
  maxLineBytes?: number;
  /** Files up to this size are read in one call, which is much faster for thousands of small rollouts. */
  wholeFileBelow?: number;
}

export interface ReadLinesResult {
  bytes: number;
  lines: number;
}

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
const DEFAULT_WHOLE_FILE_BELOW = 4 * 1024 * 1024;
const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Splits byte chunks into lines. readline is not used because it keeps a whole line as a string however long it
 * is (a single tool output can be hundreds of MB) and decodes every byte; here a line over the cap is dropped as
 * it streams and callers can test raw bytes (`Buffer.indexOf`) before paying for decoding and JSON.parse.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private partLength = 0;
  private overflow = false;
  private lineNo = 0;

  constructor(
    private readonly maxLineBytes: number,
    private readonly sink: LineSink,
  ) {}

  get lines(): number {
    return this.lineNo;
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NEWLINE, start);
      if (nl === -1) {
        this.append(chunk.subarray(start));
        return;
      }
      this.append(chunk.subarray(start, nl));
      this.emit();
      start = nl + 1;
    }
  }

  end(): void {
    if (this.partLength > 0 || this.overflow) this.emit();
  }

  private append(piece: Buffer): void {
    if (piece.length === 0) return;
    this.partLength += piece.length;
    if (this.overflow) return;
    if (this.partLength > this.maxLineBytes) {
      this.overflow = true;
      this.parts = [];
      return;
    }
    this.parts.push(piece);
  }

  private emit(): void {
    this.lineNo++;
    const length = this.partLength;
    let line: Buffer | null = null;
    if (!this.overflow) {
      const only = this.parts.length === 1 ? this.parts[0] : undefined;
      line = only ?? Buffer.concat(this.parts, length);
      if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    }
    this.parts = [];
    this.partLength = 0;
    this.overflow = false;
    this.sink(this.lineNo, line, length);
  }
}

/** Feeds every line of `path` to `sink`; small files in one read, large ones streamed in 256 KiB chunks. */
export async function readLines(path: string, sink: LineSink, options: ReadLinesOptions = {}): Promise<ReadLinesResult> {
  const splitter = new LineSplitter(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, sink);
  // A regular file only, opened without blocking: a FIFO (even one swapped in after the listing) is refused by name.
  // A session file may be reached through a symlink, as Codex reaches it (sessions/ is often one).
  const opened = await openRegularFile(path, path, { follow: true });
  if (opened.info.size <= (options.wholeFileBelow ?? DEFAULT_WHOLE_FILE_BELOW)) {
    let bytes: Buffer;
    try {
      bytes = (await readOpenedFile(opened, NO_CAP, tooBigFailure(path, NO_CAP))).bytes;
    } finally {
      await closeQuietly(opened.fd);
    }
    splitter.push(bytes);
    splitter.end();
    return { bytes: bytes.length, lines: splitter.lines };
  }
  let bytes = 0;
  const stream = createReadStream(path, { fd: opened.fd, autoClose: true, highWaterMark: 256 * 1024 });
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    bytes += buffer.length;
    splitter.push(buffer);
  }
  splitter.end();
  return { bytes, lines: splitter.lines };
}
