// The renderer's fix edits (Redact): each line keeps its own ending, so a mixed-endings file changes only where the fix does.
import { describe, expect, it } from 'vitest';
import { applyTextEdits } from '../../electron/core/formats';
import { computeHunks } from '../../electron/core/review/hunks';
import { applyLineEdits } from '../../renderer/src/lib/apply-edits';
import type { TextEdit } from '../../shared/formats';

const MIXED = '# Notes\r\ntoken: sk-live-123\nsecond line\r\nlast line';

describe('applyLineEdits', () => {
  it('keeps every untouched line ending of a file with mixed endings', () => {
    const out = applyLineEdits(MIXED, [{ line: 2, endLine: 2, text: 'token: [REDACTED]' }]);
    expect(out).toBe('# Notes\r\ntoken: [REDACTED]\nsecond line\r\nlast line');
  });

  it('changes no byte outside a redacted span of a mixed-endings file', () => {
    const secret = 'sk-live-123';
    const at = MIXED.indexOf(secret);
    const out = applyLineEdits(MIXED, [{ line: 2, endLine: 2, startColumn: 8, endColumn: 8 + secret.length, text: '[REDACTED]' }]);
    expect(out).toBe(MIXED.slice(0, at) + '[REDACTED]' + MIXED.slice(at + secret.length));
  });

  it('proposes a one-line change, not a whole-file diff, for a redaction in a mostly-LF file whose first line ends in CRLF', () => {
    const text = '# Notes\r\n' + Array.from({ length: 30 }, (_, i) => `- note ${i + 1}\n`).join('') + 'token: sk-live-123\n';
    const out = applyLineEdits(text, [{ line: 32, endLine: 32, text: 'token: [REDACTED]' }]);
    expect(computeHunks(text, out).map((h) => [h.added, h.removed])).toEqual([[1, 1]]);
  });

  it('gives added lines the file’s own ending and keeps a BOM and a final newline', () => {
    expect(applyLineEdits('\uFEFFa\r\nb\r\n', [{ line: 2, endLine: 1, text: 'x\ny' }])).toBe('\uFEFFa\r\nx\r\ny\r\nb\r\n');
    expect(applyLineEdits('a\nb\n', [{ line: 3, endLine: 2, text: 'c' }])).toBe('a\nb\nc\n');
    expect(applyLineEdits('a\nb', [{ line: 3, endLine: 2, text: 'c' }])).toBe('a\nb\nc');
  });

  it('deletes lines with their endings, the last line keeping the file’s final ending', () => {
    expect(applyLineEdits('a\r\nb\nc\r\n', [{ line: 2, endLine: 2, text: '' }])).toBe('a\r\nc\r\n');
    expect(applyLineEdits('a\r\nb\nc', [{ line: 3, endLine: 3, text: '' }])).toBe('a\r\nb');
  });

  it('applies several edits against the original numbering', () => {
    const edits: TextEdit[] = [
      { line: 1, endLine: 1, startColumn: 1, endColumn: 2, text: 'A' },
      { line: 3, endLine: 3, text: 'C' },
    ];
    expect(applyLineEdits('a1\r\nb\nc\r\n', edits)).toBe('A1\r\nb\nC\r\n');
  });

  it('agrees with core’s line edits on every case above', () => {
    const cases: Array<[string, TextEdit[]]> = [
      [MIXED, [{ line: 2, endLine: 2, text: 'token: [REDACTED]' }]],
      [MIXED, [{ line: 2, endLine: 2, startColumn: 8, endColumn: 19, text: '[REDACTED]' }]],
      ['\uFEFFa\r\nb\r\n', [{ line: 2, endLine: 1, text: 'x\ny' }]],
      ['a\nb\n', [{ line: 3, endLine: 2, text: 'c' }]],
      ['a\nb', [{ line: 3, endLine: 2, text: 'c' }]],
      ['a\r\nb\nc\r\n', [{ line: 2, endLine: 2, text: '' }]],
      ['a\r\nb\nc', [{ line: 3, endLine: 3, text: '' }]],
      ['one\rtwo\rthree\r', [{ line: 2, endLine: 3, text: 'merged' }]],
    ];
    for (const [text, edits] of cases) expect(applyLineEdits(text, edits), JSON.stringify({ text, edits })).toBe(applyTextEdits(text, edits));
  });
});
