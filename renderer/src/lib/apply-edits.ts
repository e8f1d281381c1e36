// Applies a fix's edits (shared/formats TextEdit: line ranges, 1-based inclusive, `endLine = line - 1` inserts; or column spans) to a text.
import type { TextEdit } from '../../../shared/formats';

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * Edits are applied bottom-up so earlier line numbers stay valid. The file's first line ending is used for the
 * lines written (as core writes fixes back); a byte-order mark and a final line ending are kept.
 */
export function applyLineEdits(content: string, edits: readonly TextEdit[]): string {
  const bom = content.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = bom ? content.slice(1) : content;
  const eol = LINE_BREAK.exec(body)?.[0] ?? '\n';
  const parts = body === '' ? [] : body.split(LINE_BREAK);
  const trailing = parts.length > 1 && parts[parts.length - 1] === '';
  const lines = trailing ? parts.slice(0, -1) : parts;
  // Last first, and right to left on one line, so every edit's lines and columns refer to the original text.
  const ordered = [...edits].sort((a, b) => b.line - a.line || b.endLine - a.endLine || (b.startColumn ?? 0) - (a.startColumn ?? 0));
  for (const edit of ordered) {
    const count = Math.max(edit.endLine - edit.line + 1, 0);
    // A span edit (columns set) replaces only its span: the untouched rest of its first and last lines is kept.
    const span = edit.startColumn !== undefined && edit.endColumn !== undefined;
    const text = span ? (lines[edit.line - 1] ?? '').slice(0, (edit.startColumn as number) - 1) + edit.text + (lines[edit.endLine - 1] ?? '').slice((edit.endColumn as number) - 1) : edit.text;
    const replacement = text === '' && !span ? [] : text.split('\n');
    lines.splice(edit.line - 1, count, ...replacement);
  }
  return bom + lines.join(eol) + (trailing ? eol : '');
}
