// Rust `str` semantics on UTF-8 bytes, as Codex's truncation relies on them: trim, char boundaries, lines.
import { itemAt } from '../platform/indexed';

/** Unicode White_Space, the set Rust's `char::is_whitespace` and so `str::trim` use (not JS's `trim`, which also strips U+FEFF). */
const WHITE_SPACE = /^\p{White_Space}$/u;

/** `str::trim` as UTF-16 indices: the kept text is `text.slice(start, end)`. White_Space is all in the BMP. */
export function rustTrimRange(text: string): { start: number; end: number } {
  let start = 0;
  while (start < text.length && WHITE_SPACE.test(text.charAt(start))) start++;
  let end = text.length;
  while (end > start && WHITE_SPACE.test(text.charAt(end - 1))) end--;
  return { start, end };
}

/** `str::trim` exactly (Unicode White_Space at both ends). */
export function rustTrim(text: string): string {
  const { start, end } = rustTrimRange(text);
  return text.slice(start, end);
}

/** Rust's `str::lines()`: split at `\n`, drop one `\r` before it; a lone `\r` is not a break; no lines in ''. */
export function rustLines(text: string): string[] {
  if (text.length === 0) return [];
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts.map((line, i) => (i < parts.length - 1 || text.endsWith('\n') ? line.replace(/\r$/, '') : line));
}

/** A byte that starts a UTF-8 sequence (not a continuation byte `10xxxxxx`). */
const isCharStart = (byte: number): boolean => (byte & 0xc0) !== 0x80;

/** `str::is_char_boundary` on valid UTF-8 bytes. */
export function isCharBoundary(bytes: Uint8Array, index: number): boolean {
  if (index === 0 || index === bytes.length) return true;
  if (index < 0 || index > bytes.length) return false;
  return isCharStart(itemAt(bytes, index));
}

/** `str::floor_char_boundary`: the largest boundary <= index. */
export function floorCharBoundary(bytes: Uint8Array, index: number): number {
  if (index >= bytes.length) return bytes.length;
  let i = Math.max(0, index);
  while (!isCharBoundary(bytes, i)) i--;
  return i;
}

/** `str::ceil_char_boundary`: the smallest boundary >= index. */
export function ceilCharBoundary(bytes: Uint8Array, index: number): number {
  if (index >= bytes.length) return bytes.length;
  let i = Math.max(0, index);
  while (!isCharBoundary(bytes, i)) i++;
  return i;
}

const LF = 0x0a;
const CR = 0x0d;

/** True when `index` starts a line: the file start, or right after LF, after CRLF, or after a lone CR. */
export function isLineStart(bytes: Uint8Array, index: number): boolean {
  if (index <= 0) return true;
  const prev = bytes[index - 1];
  if (prev === LF) return true;
  return prev === CR && bytes[index] !== LF;
}

/** 1-based line of the byte at `index` (LF, CRLF and lone CR end a line; the break belongs to its line). */
export function lineOfByte(bytes: Uint8Array, index: number): number {
  let line = 1;
  const stop = Math.min(index, bytes.length);
  for (let i = 0; i < stop; i++) {
    const b = bytes[i];
    if (b === LF) line++;
    else if (b === CR && bytes[i + 1] !== LF) line++;
  }
  return line;
}

/** True when the byte at `index` ends a line (LF, or the CR of CRLF / a lone CR). */
export function isLineBreakByte(bytes: Uint8Array, index: number): boolean {
  const b = bytes[index];
  return b === LF || b === CR;
}
