// Fills an editor with a large file a slice per task (text-buffer.ts), keeping what the person can do with it honest
// while it goes in: nothing can be typed into a part of a file, and no part of a file is ever reported as a draft.
import * as monaco from 'monaco-editor/editor/editor.api';
import type { editor } from 'monaco-editor/editor/editor.api';
import { setValueInSlices, type SliceOptions } from './text-buffer';

export interface Fill {
  /** Told true when the fill starts and false once all of the text is in (not when it is stopped). */
  filling: (on: boolean) => void;
  /** Read when the fill ends: whether the editor is editable then, and where its whole text is reported. */
  edit: { readonly current: { editable: boolean; onEdit?: (text: string) => void } };
  /** True once another file (or the same file again) was asked for: the fill stops at its next slice. */
  stale: () => boolean;
  /** Called once all of the text is in (its language and place are the caller's). */
  landed: () => void;
}

/**
 * A large file goes in as plain, unwrapped, read-only text, a slice per task; its partial text is never reported as an
 * edit (a draft must never be a part of the file). Once all of it is in: writable again if editing, the whole text
 * reported once, then `landed`. Resolves when the fill ended, landed or stopped.
 */
export async function fillInSlices(
  instance: Pick<editor.IStandaloneCodeEditor, 'updateOptions'>,
  model: editor.ITextModel,
  text: string,
  fill: Fill,
  slices?: SliceOptions,
): Promise<void> {
  instance.updateOptions({ wordWrap: 'off', readOnly: true, domReadOnly: true });
  monaco.editor.setModelLanguage(model, 'plaintext');
  fill.filling(true);
  const done = await setValueInSlices(model, text, fill.stale, slices);
  if (!done || fill.stale()) return;
  fill.filling(false);
  const { editable, onEdit } = fill.edit.current;
  instance.updateOptions({ readOnly: !editable, domReadOnly: !editable });
  if (editable) onEdit?.(model.getValue());
  fill.landed();
}
