// Edit mode's Propose: it sends the editor's latest text, even when the key comes before the render of the last change.
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useEditMode } from '../../renderer/src/main-pane/edit-mode';
import type { FileContent } from '../../shared/domain';
import { ok } from '../../shared/result';
import { proposal } from './support/proposal';
import { studioStub } from './support/studio-stub';

const file: FileContent = {
  version: 'v1',
  path: 'memory_summary.md',
  kind: 'summary',
  content: 'first line\n',
  size: 11,
  mtimeMs: 1,
  lineCount: 1,
  eol: 'lf',
  injected: true,
  editing: 'curated',
};

function setup(content: FileContent = file) {
  const stub = studioStub({ 'review.propose': () => ok(proposal('p-9')) });
  const proposed: string[] = [];
  const hook = renderHook(({ f }: { f: FileContent }) => useEditMode(f, (id) => proposed.push(id)), {
    wrapper: stub.wrapper,
    initialProps: { f: content },
  });
  const sent = () => stub.calls.filter((c) => c.channel === 'review.propose').map((c) => c.input as { content: string });
  return { ...hook, proposed, sent };
}

describe('useEditMode', () => {
  it('proposes the last change when Propose comes in the same task, before a render', async () => {
    const { result, sent, proposed } = setup();
    act(() => result.current.start());
    expect(result.current.phase).toBe('editing');
    // One task: the editor reports two changes, then the key proposes, all through the object of one render.
    act(() => {
      const mode = result.current;
      mode.setDraft('first line\nsecond\n');
      mode.setDraft('first line\nsecond\nthird\n');
      mode.propose();
    });
    await waitFor(() => expect(proposed).toEqual(['p-9']));
    expect(sent().map((s) => s.content)).toEqual(['first line\nsecond\nthird\n']);
    expect(result.current.phase).toBe('viewing');
  });

  it('proposes nothing once the edit is cancelled, even through the object of an earlier render', async () => {
    const { result, sent, proposed } = setup();
    act(() => result.current.start());
    act(() => result.current.setDraft('changed\n'));
    const before = result.current;
    act(() => before.cancel());
    act(() => before.propose());
    // A later edit and Propose: the only request is that one (requests go out in order).
    act(() => result.current.start());
    act(() => result.current.setDraft('later\n'));
    act(() => result.current.propose());
    await waitFor(() => expect(proposed).toEqual(['p-9']));
    expect(sent().map((s) => s.content)).toEqual(['later\n']);
  });

  it('drops the draft of a file that changed under the edit (another version leaves edit mode)', async () => {
    const { result, rerender, sent, proposed } = setup();
    act(() => result.current.start());
    act(() => result.current.setDraft('changed\n'));
    rerender({ f: { ...file, version: 'v2' } });
    expect(result.current.phase).toBe('viewing');
    act(() => result.current.propose());
    act(() => result.current.start());
    act(() => result.current.setDraft('on v2\n'));
    act(() => result.current.propose());
    await waitFor(() => expect(proposed).toEqual(['p-9']));
    expect(sent()).toEqual([expect.objectContaining({ version: 'v2', content: 'on v2\n' })]);
  });
});
