// Exact line model of a text (LF, CRLF, lone CR, BOM, no final newline) and its inverse, for byte-identical round trips.
import { itemAt } from '../platform/indexed';
import type { SourceModel, TextEdit } from '../../../shared/formats';

type Break = '\n' | '\r\n' | '\r' | '';

const EOL_TEXT: Record<SourceModel['eol'], Break> = { lf: '\n', crlf: '\r\n', cr: '\r', none: '', mixed: '\n' };
const BREAK_EOL: Record<Exclude<Break, ''>, SourceModel['eol']> = { '\n': 'lf', '\r\n': 'crlf', '\r': 'cr' };

/** Splits `text` into lines without losing a single code unit: `serializeSource(splitSource(x)) === x`. */
export function splitSource(text: string): SourceModel {
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  if (body.length === 0) return { bom, eol: 'none', finalNewline: false, lines: [] };
  if (!body.includes('\r')) {
    // Fast path (the common case, and the 5 MB handbooks): LF only.
    const lines = body.split('\n');
    const finalNewline = body.charCodeAt(body.length - 1) === 10;
    if (finalNewline) lines.pop();
    return { bom, eol: lines.length > 1 || finalNewline ? 'lf' : 'none', finalNewline, lines };
  }
  const lines: string[] = [];
  const breaks: Break[] = [];
  const re = /\r\n|\n|\r/g;
  let start = 0;
  for (let m = re.exec(body); m !== null; m = re.exec(body)) {
    lines.push(body.slice(start, m.index));
    breaks.push(m[0] === '\r\n' ? '\r\n' : m[0] === '\r' ? '\r' : '\n');
    start = m.index + m[0].length;
  }
  const finalNewline = start === body.length;
  if (!finalNewline) {
    lines.push(body.slice(start));
    breaks.push('');
  }
  const kinds = new Set(breaks.filter((b): b is Exclude<Break, ''> => b !== ''));
  const [only] = kinds;
  if (kinds.size === 1 && only !== undefined) return { bom, eol: BREAK_EOL[only], finalNewline, lines };
  return { bom, eol: 'mixed', finalNewline, lines, breaks };
}

/** The terminator after each line (`''` after a last line without one). */
export function lineBreaks(src: SourceModel): Break[] {
  if (src.breaks && src.breaks.length === src.lines.length) return src.breaks.slice();
  const eol = EOL_TEXT[src.eol];
  return src.lines.map((_, i) => (i < src.lines.length - 1 || src.finalNewline ? eol : ''));
}

/** Rebuilds the exact text from a line model. */
export function serializeSource(src: SourceModel): string {
  const prefix = src.bom ? '\uFEFF' : '';
  const breaks = src.breaks;
  if (breaks && breaks.length === src.lines.length) {
    let out = prefix;
    for (const [i, line] of src.lines.entries()) out += line + itemAt(breaks, i);
    return out;
  }
  if (src.lines.length === 0) return prefix;
  const eol = EOL_TEXT[src.eol];
  return prefix + src.lines.join(eol) + (src.finalNewline ? eol : '');
}

/** The line ending new lines get: the file's own, or LF when it has none or mixes them. */
export function dominantEol(src: SourceModel): '\n' | '\r\n' | '\r' {
  return src.eol === 'crlf' ? '\r\n' : src.eol === 'cr' ? '\r' : '\n';
}

/** Last edit first, so every edit's lines and columns still refer to the original text; span edits on one line right to left. */
export function bottomUp<E extends TextEdit>(edits: readonly E[]): E[] {
  return edits.slice().sort((a, b) => b.line - a.line || b.endLine - a.endLine || (b.startColumn ?? 0) - (a.startColumn ?? 0));
}

/** A span edit as the whole-line edit it amounts to on the current lines (a line edit is returned as is). */
export function asLineEdit(lines: readonly string[], edit: TextEdit): TextEdit {
  if (edit.startColumn === undefined || edit.endColumn === undefined) return edit;
  const head = (lines[edit.line - 1] ?? '').slice(0, edit.startColumn - 1);
  const tail = (lines[edit.endLine - 1] ?? '').slice(edit.endColumn - 1);
  return { line: edit.line, endLine: edit.endLine, text: head + edit.text + tail };
}

function applyOne(lines: string[], breaks: Break[], edit: TextEdit, eol: Break): void {
  const start = Math.max(1, edit.line);
  const end = Math.min(lines.length, Math.max(start - 1, edit.endLine));
  const removed = end - start + 1;
  const lastBreak: Break = removed > 0 ? itemAt(breaks, end - 1) : start <= lines.length ? eol : '';
  if (removed > 0 && edit.text === '') {
    lines.splice(start - 1, removed);
    breaks.splice(start - 1, removed);
    if (start - 1 === lines.length && lines.length > 0) breaks[lines.length - 1] = lastBreak;
    return;
  }
  const added = edit.text.split('\n');
  const addedBreaks: Break[] = added.map((_, i) => (i < added.length - 1 ? eol : lastBreak));
  if (removed === 0 && start > lines.length) {
    // Appending after the last line: it needs a terminator now; the new last line keeps the old ending.
    const tail = lines.length > 0 ? itemAt(breaks, lines.length - 1) : '';
    if (lines.length > 0) breaks[lines.length - 1] = eol;
    addedBreaks[addedBreaks.length - 1] = tail;
  } else if (removed === 0) {
    addedBreaks[addedBreaks.length - 1] = eol;
  }
  lines.splice(start - 1, removed, ...added);
  breaks.splice(start - 1, removed, ...addedBreaks);
}

/**
 * Applies line edits (see `TextEditSchema`) to `text`, keeping the BOM and every untouched line ending.
 * Edits must not overlap; they are applied bottom-up so their line numbers all refer to the original text.
 */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const src = splitSource(text);
  const lines = src.lines.slice();
  const breaks = lineBreaks(src);
  const eol = dominantEol(src);
  for (const edit of bottomUp(edits)) applyOne(lines, breaks, asLineEdit(lines, edit), eol);
  return serializeSource({ bom: src.bom, eol: 'mixed', finalNewline: false, lines, breaks });
}
