// Applies a fix's line-range edits (shared/formats TextEdit: 1-based inclusive, `endLine = line - 1` inserts) to a text.
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
  const ordered = [...edits].sort((a, b) => b.line - a.line || b.endLine - a.endLine);
  for (const edit of ordered) {
    const count = Math.max(edit.endLine - edit.line + 1, 0);
    const replacement = edit.text === '' ? [] : edit.text.split('\n');
    lines.splice(edit.line - 1, count, ...replacement);
  }
  return bom + lines.join(eol) + (trailing ? eol : '');
}
