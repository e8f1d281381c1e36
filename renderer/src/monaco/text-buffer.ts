// Puts a large file's text into a Monaco model a slice per task, so neither its line split nor the editor's view of its
// lines is ever all done in one long task.
import type { editor } from 'monaco-editor/editor/editor.api';

/** Characters per slice (cut after a line break): about 2,700 lines of the heavy home's MEMORY.md. */
const SLICE_CHARS = 256 * 1024;
/** Work per task before handing the main thread back (a long task is 50 ms; this leaves room under load). */
const SLICE_BUDGET_MS = 8;

/** Under this size `model.setValue(text)` is quick enough in one task. */
export const CHUNKED_MIN_CHARS = 512 * 1024;

export interface SliceOptions {
  /** The pause between tasks (a macrotask by default). */
  yieldTask?: () => Promise<void>;
  /** Milliseconds of appending per task (0: one slice per task). */
  budgetMs?: number;
  /** Characters per slice. */
  sliceChars?: number;
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Where the slice from `from` ends: just after the last \n within `size` characters, so a \r\n and a surrogate pair are
 * never cut; the whole rest when it is short, or when no \n is found (one very long line goes in whole).
 */
export function sliceEnd(text: string, from: number, size: number): number {
  if (text.length - from <= size) return text.length;
  const newline = text.lastIndexOf('\n', from + size - 1);
  if (newline >= from) return newline + 1;
  const next = text.indexOf('\n', from + size);
  return next < 0 ? text.length : next + 1;
}

/**
 * Sets `text` in the model: its first slice now with setValue (the caller's task), the rest appended at the end over
 * later tasks (no undo stop; the view model only lays out the lines each append adds). Resolves false when `cancelled()`
 * turns true at a task boundary (another file was asked for meanwhile), leaving the model part-filled.
 */
export async function setValueInSlices(
  model: editor.ITextModel,
  text: string,
  cancelled: () => boolean,
  { yieldTask = nextTask, budgetMs = SLICE_BUDGET_MS, sliceChars = SLICE_CHARS }: SliceOptions = {},
): Promise<boolean> {
  let offset = sliceEnd(text, 0, sliceChars);
  model.setValue(text.slice(0, offset));
  while (offset < text.length) {
    await yieldTask();
    if (cancelled()) return false;
    const started = performance.now();
    do {
      const end = sliceEnd(text, offset, sliceChars);
      const last = model.getLineCount();
      const column = model.getLineMaxColumn(last);
      model.applyEdits([
        { range: { startLineNumber: last, startColumn: column, endLineNumber: last, endColumn: column }, text: text.slice(offset, end) },
      ]);
      offset = end;
    } while (offset < text.length && performance.now() - started < budgetMs);
  }
  return true;
}
