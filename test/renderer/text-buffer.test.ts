// A large file goes into a real Monaco model a slice per task: the model ends with exactly the text one setValue would
// give, slices never cut a \r\n or a surrogate pair, and a newer file stops the slicing.
import { describe, expect, it } from 'vitest';
import * as monaco from 'monaco-editor/editor/editor.api';
import { setValueInSlices, sliceEnd } from '../../renderer/src/monaco/text-buffer';

const SLICE = 1000;

/** About 10 KB whose slices would end inside a \r\n, inside a surrogate pair and right after a lone \r. */
function awkwardText(): string {
  const lines = Array.from({ length: 400 }, (_, i) => `- line ${i}: word word`);
  lines[40] = `${lines[40]}\r`;
  lines[80] = `${'x'.repeat(SLICE - 1)}😀 one long line`;
  lines[120] = `a lone\rcarriage return`;
  return lines.join('\n');
}

/** Pauses counted, and a hook run at each (the test's "meanwhile"). */
function pauses(meanwhile: () => void = () => undefined) {
  const seen = { count: 0 };
  const yieldTask = async () => {
    seen.count++;
    meanwhile();
  };
  return { seen, yieldTask };
}

describe('setValueInSlices', () => {
  it('ends with the text setValue gives, appended a slice per task, with no slice cutting a line break or a character', async () => {
    const text = awkwardText();
    const model = monaco.editor.createModel('previous file', 'plaintext');
    const whole = monaco.editor.createModel(text, 'plaintext');
    const { seen, yieldTask } = pauses();
    const done = await setValueInSlices(model, text, () => false, { yieldTask, budgetMs: 0, sliceChars: SLICE });
    expect(done).toBe(true);
    expect(seen.count).toBeGreaterThan(5);
    expect(model.getValue()).toBe(whole.getValue());
    expect(model.getLineCount()).toBe(whole.getLineCount());
    expect(model.getValue()).toContain('😀 one long line');
    for (let from = 0, end = 0; from < text.length; from = end) {
      end = sliceEnd(text, from, SLICE);
      expect(end === text.length || text[end - 1] === '\n').toBe(true);
    }
    model.dispose();
    whole.dispose();
  });

  it('stops at the next task boundary once another file is asked for', async () => {
    const model = monaco.editor.createModel('', 'plaintext');
    let cancelled = false;
    const { seen, yieldTask } = pauses(() => (cancelled = true));
    const done = await setValueInSlices(model, 'line\n'.repeat(2000), () => cancelled, { yieldTask, budgetMs: 0, sliceChars: SLICE });
    expect(done).toBe(false);
    expect(seen.count).toBe(1);
    expect(model.getLineCount()).toBeLessThan(2000);
    model.dispose();
  });

  it('sets a short text at once, without a pause', async () => {
    const model = monaco.editor.createModel('', 'plaintext');
    const { seen, yieldTask } = pauses();
    expect(await setValueInSlices(model, 'one\ntwo\n', () => false, { yieldTask })).toBe(true);
    expect(seen.count).toBe(0);
    expect(model.getValue()).toBe('one\ntwo\n');
    model.dispose();
  });
});
