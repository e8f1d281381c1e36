// Maps UTF-16 offsets of a file's text to the parsers' line model: 1-based lines after the BOM, LF/CRLF/CR breaks.
import { itemAt } from '../platform/indexed';
import type { LintEdit } from '../../../shared/lint';

export interface LinePosition {
  line: number;
  /** 1-based UTF-16 column. */
  column: number;
}

/** Line starts and ends of one text, built once, queried many times. */
export class TextLines {
  readonly text: string;
  /** UTF-16 offset where each line's content starts (line 1 starts after a BOM). */
  private readonly starts: number[] = [];
  /** UTF-16 offset where each line's content ends (before its break). */
  private readonly ends: number[] = [];

  constructor(text: string) {
    this.text = text;
    let start = text.startsWith('\uFEFF') ? 1 : 0;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x0a && c !== 0x0d) continue;
      this.starts.push(start);
      this.ends.push(i);
      if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
      start = i + 1;
    }
    // Like the parsers' `splitSource`: a final break ends the last line, it does not open an empty one.
    if (start < text.length || this.starts.length === 0) {
      this.starts.push(start);
      this.ends.push(text.length);
    }
  }

  /** Lines in the parsers' model (an empty text has one empty line here, zero there). */
  get lineCount(): number {
    return this.text.length === 0 || this.text === '\uFEFF' ? 0 : this.starts.length;
  }

  /** Content of a 1-based line, without its break. */
  lineText(line: number): string {
    return this.text.slice(this.starts[line - 1], this.ends[line - 1]);
  }

  lineStart(line: number): number {
    return itemAt(this.starts, line - 1);
  }

  lineEnd(line: number): number {
    return itemAt(this.ends, line - 1);
  }

  /** The line holding `offset`; an offset on a line break belongs to that break's line. */
  position(offset: number): LinePosition {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (itemAt(this.starts, mid) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: Math.max(0, offset - itemAt(this.starts, lo)) + 1 };
  }

  /**
   * The edit that replaces `text[start, end)` by `replacement`, and nothing else: a span from (line, startColumn)
   * to (endLine, endColumn), so the edit never carries the rest of the line (another secret on it stays out).
   */
  replaceEdit(start: number, end: number, replacement: string): LintEdit {
    const from = this.position(start);
    const to = this.position(end);
    return {
      line: from.line,
      endLine: to.line,
      startColumn: from.column,
      endColumn: to.column,
      text: replacement.replace(/\r\n|\r/g, '\n'),
    };
  }
}

/** The texts of a file's lines, without their breaks (the parsers' model), for "did the file already have this line". */
export function lineSetOf(text: string): Set<string> {
  const lines = new TextLines(text);
  const out = new Set<string>();
  for (let line = 1; line <= lines.lineCount; line++) out.add(lines.lineText(line));
  return out;
}
