// A big file fills the editor a slice per task: while it does, the editor is read-only and no part of the file is ever
// reported as a draft; once all of it is in, the editor is writable again (when editing) and the whole text reported
// once. A fill that another file replaces stops, and reports nothing.
import { describe, expect, it } from 'vitest';
import * as monaco from 'monaco-editor/editor/editor.api';
import type { editor } from 'monaco-editor/editor/editor.api';
import { fillInSlices } from '../../renderer/src/monaco/fill-editor';

const text = Array.from({ length: 500 }, (_, i) => `- line ${i}: the build uses pnpm`).join('\n');

/** An editor that records its options, a fill's callbacks, and what the editor was like at every pause. */
function harness(editable: boolean) {
  const options: editor.IEditorOptions = {};
  const instance = { updateOptions: (o: editor.IEditorOptions) => Object.assign(options, o) };
  const reported: string[] = [];
  const events: string[] = [];
  const edit = { current: { editable, onEdit: (t: string) => reported.push(t) } };
  return { options, instance, reported, events, edit };
}

describe('fillInSlices', () => {
  it('keeps the editor read-only and reports nothing while filling, then reports the whole text once', async () => {
    const h = harness(true);
    const model = monaco.editor.createModel('the previous file', 'markdown');
    const atPauses: { readOnly: boolean | undefined; reported: number; partial: boolean }[] = [];
    const yieldTask = async () => {
      atPauses.push({ readOnly: h.options.readOnly, reported: h.reported.length, partial: model.getValue() !== text });
    };
    await fillInSlices(
      h.instance,
      model,
      text,
      { filling: (on) => h.events.push(`filling ${on}`), edit: h.edit, stale: () => false, landed: () => h.events.push('landed') },
      { yieldTask, budgetMs: 0, sliceChars: 1000 },
    );
    expect(atPauses.length).toBeGreaterThan(5);
    expect(atPauses.every((p) => p.readOnly === true && p.reported === 0 && p.partial)).toBe(true);
    expect(h.reported).toEqual([text]);
    expect(h.options.readOnly).toBe(false);
    expect(h.options.domReadOnly).toBe(false);
    expect(h.events).toEqual(['filling true', 'filling false', 'landed']);
    expect(model.getLanguageId()).toBe('plaintext');
  });

  it('leaves a file being read read-only and reports nothing at the end', async () => {
    const h = harness(false);
    const model = monaco.editor.createModel('', 'plaintext');
    await fillInSlices(
      h.instance,
      model,
      text,
      { filling: () => undefined, edit: h.edit, stale: () => false, landed: () => undefined },
      {
        yieldTask: async () => undefined,
        budgetMs: 0,
        sliceChars: 1000,
      },
    );
    expect(model.getValue()).toBe(text);
    expect(h.options.readOnly).toBe(true);
    expect(h.reported).toEqual([]);
  });

  it('stops when another file is asked for, reporting nothing and never landing', async () => {
    const h = harness(true);
    const model = monaco.editor.createModel('', 'plaintext');
    let pauses = 0;
    let stale = false;
    await fillInSlices(
      h.instance,
      model,
      text,
      { filling: (on) => h.events.push(`filling ${on}`), edit: h.edit, stale: () => stale, landed: () => h.events.push('landed') },
      {
        yieldTask: async () => {
          if (++pauses === 3) stale = true;
        },
        budgetMs: 0,
        sliceChars: 1000,
      },
    );
    expect(model.getValue()).not.toBe(text);
    expect(h.reported).toEqual([]);
    expect(h.events).toEqual(['filling true']);
  });
});
