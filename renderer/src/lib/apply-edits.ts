// Applies a fix's edits (shared/formats TextEdit: line ranges, 1-based inclusive, `endLine = line - 1` inserts; or column spans) to a text.
import type { TextEdit } from '../../../shared/formats';

const LINE_BREAK = /\r\n|\r|\n/g;

/** Each line with the terminator that follows it (`''` after a last line without one). */
function splitKeepingBreaks(body: string): { lines: string[]; breaks: string[] } {
  const lines: string[] = [];
  const breaks: string[] = [];
  let start = 0;
  for (const match of body.matchAll(LINE_BREAK)) {
    lines.push(body.slice(start, match.index));
    breaks.push(match[0]);
    start = match.index + match[0].length;
  }
  if (start < body.length) {
    lines.push(body.slice(start));
    breaks.push('');
  }
  return { lines, breaks };
}

/** The ending new lines get: the file's only one, or LF when it has none or mixes them (as core's line edits do). */
function newLineEnding(breaks: readonly string[]): string {
  const kinds = new Set(breaks.filter((b) => b !== ''));
  return kinds.size === 1 ? ([...kinds][0] as string) : '\n';
}

/**
 * Edits are applied bottom-up so earlier line numbers stay valid. Every untouched line keeps its own ending, so a
 * file with mixed endings changes only where the fix does; a replaced range keeps its last line's ending, and
 * lines the fix adds get the file's ending. A byte-order mark is kept.
 */
export function applyLineEdits(content: string, edits: readonly TextEdit[]): string {
  const bom = content.startsWith('\uFEFF') ? '\uFEFF' : '';
  const { lines, breaks } = splitKeepingBreaks(bom ? content.slice(1) : content);
  const eol = newLineEnding(breaks);
  // Last first, and right to left on one line, so every edit's lines and columns refer to the original text.
  const ordered = [...edits].sort((a, b) => b.line - a.line || b.endLine - a.endLine || (b.startColumn ?? 0) - (a.startColumn ?? 0));
  for (const edit of ordered) {
    const start = edit.line - 1;
    const count = Math.max(Math.min(edit.endLine, lines.length) - edit.line + 1, 0);
    // A span edit (columns set) replaces only its span: the untouched rest of its first and last lines is kept.
    const span = edit.startColumn !== undefined && edit.endColumn !== undefined;
    const text = span ? (lines[start] ?? '').slice(0, (edit.startColumn as number) - 1) + edit.text + (lines[edit.endLine - 1] ?? '').slice((edit.endColumn as number) - 1) : edit.text;
    const replacement = text === '' && !span ? [] : text.split('\n');
    // The range's last ending closes the replacement; an insertion before a line ends its lines with the file's ending.
    const closing = count > 0 ? (breaks[start + count - 1] as string) : start < lines.length ? eol : '';
    const replacementBreaks = replacement.map((_, i) => (i < replacement.length - 1 ? eol : closing));
    if (count === 0 && start >= lines.length && lines.length > 0 && replacement.length > 0) {
      // Appending after the last line: it needs an ending now, and the new last line takes over the old one.
      replacementBreaks[replacementBreaks.length - 1] = breaks[lines.length - 1] as string;
      breaks[lines.length - 1] = eol;
    }
    if (replacement.length === 0 && count > 0 && start + count === lines.length && start > 0) {
      // Deleting the last lines: the line now last keeps the file's final ending (or its absence).
      breaks[start - 1] = closing;
    }
    lines.splice(start, count, ...replacement);
    breaks.splice(start, count, ...replacementBreaks);
  }
  return bom + lines.map((line, i) => line + (breaks[i] as string)).join('');
}
