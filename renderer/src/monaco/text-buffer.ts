// Builds a large file's Monaco text buffer a slice per task, so its lines are never all split in one long task.
import {
  PieceTreeTextBufferBuilder,
  type TextBufferFactory,
} from 'monaco-editor/editor/common/model/pieceTreeTextBuffer/pieceTreeTextBufferBuilder';
import type { editor } from 'monaco-editor/editor/editor.api';

/** Monaco's own file loading feeds its builder 64 KB at a time; the builder keeps a trailing \r or high surrogate back. */
const SLICE_CHARS = 64 * 1024;
/** Work per task before handing the main thread back (a long task is 50 ms; this leaves room under load). */
const SLICE_BUDGET_MS = 8;

/** Under this size `model.setValue(text)` is quick enough in one task. */
export const CHUNKED_MIN_CHARS = 512 * 1024;

export type { TextBufferFactory };

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export interface BuildOptions {
  /** The pause between tasks (a macrotask by default). */
  yieldTask?: () => Promise<void>;
  /** Milliseconds of slicing per task (0: one slice per task). */
  budgetMs?: number;
}

/**
 * The buffer of `text` for `model.setValue`, built in slices with a task boundary every few milliseconds; null when
 * `cancelled()` turns true at a boundary (another file was asked for meanwhile).
 */
export async function buildTextBuffer(
  text: string,
  cancelled: () => boolean,
  { yieldTask = nextTask, budgetMs = SLICE_BUDGET_MS }: BuildOptions = {},
): Promise<TextBufferFactory | null> {
  const builder = new PieceTreeTextBufferBuilder();
  let offset = 0;
  while (offset < text.length) {
    const started = performance.now();
    do {
      builder.acceptChunk(text.slice(offset, offset + SLICE_CHARS));
      offset += SLICE_CHARS;
    } while (offset < text.length && performance.now() - started < budgetMs);
    if (offset < text.length) {
      await yieldTask();
      if (cancelled()) return null;
    }
  }
  return builder.finish();
}

/**
 * `model.setValue` with a string or a built buffer: Monaco's `createTextBuffer` (textModel.js) takes a buffer factory as
 * it is (its public type names only strings and snapshots; a factory has no `read`, so it is not taken for a snapshot).
 */
export function setModelText(model: editor.ITextModel, value: string | TextBufferFactory): void {
  model.setValue(value as string);
}
