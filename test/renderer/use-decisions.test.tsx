// Review decisions: shown at once, saved in order, kept (and sent again) after a failed save, flushed when the view goes.
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useDecisions } from '../../renderer/src/review/use-decisions';
import { fail, ok, type Result } from '../../shared/result';
import type { Proposal } from '../../shared/review';
import { decided, proposal } from './support/proposal';
import { deferred, studioStub } from './support/studio-stub';

type DecideInput = { id: string; files: Array<{ ord: number; decisions: Record<string, string> }> };
const busy = fail({ kind: 'Busy', message: 'The review store is busy.', hint: 'Retry in a moment.' });

function setup(answer: (input: DecideInput) => Result<unknown> | Promise<Result<unknown>>, initial: Proposal = proposal()) {
  const stub = studioStub({ 'review.decide': (input: DecideInput) => answer(input) });
  const hook = renderHook(({ p }: { p: Proposal }) => useDecisions(p), { wrapper: stub.wrapper, initialProps: { p: initial } });
  const sent = () => stub.calls.filter((c) => c.channel === 'review.decide').map((c) => c.input as DecideInput);
  return { ...hook, stub, sent };
}

describe('useDecisions', () => {
  const p = proposal();
  const [h1, h2] = p.files[0]!.hunks.map((h) => h.id);

  it('shows a decision at once and saves it with flush', async () => {
    const { result, sent } = setup((input) => ok(decided(p, input)));
    act(() => result.current.set(0, [h1!], 'accept'));
    expect(result.current.of(0)).toEqual({ [h1!]: 'accept' });
    expect(result.current.saving).toBe(true);
    await act(() => result.current.flush());
    expect(sent()).toEqual([{ id: 'p-1', files: [{ ord: 0, decisions: { [h1!]: 'accept' } }] }]);
    expect(result.current.saving).toBe(false);
    expect(result.current.saveError).toBeNull();
  });

  it('keeps a decision whose save failed on screen and sends it again with the next save (what Apply awaits)', async () => {
    let failing = true;
    const { result, sent } = setup((input) => (failing ? busy : ok(decided(p, input))));
    act(() => result.current.set(0, [h1!], 'reject'));
    await act(() => expect(result.current.flush()).rejects.toThrow('The review store is busy.'));
    expect(result.current.of(0)).toEqual({ [h1!]: 'reject' });
    expect(result.current.saveError?.message).toBe('The review store is busy.');
    expect(result.current.saving).toBe(false);
    failing = false;
    await act(() => result.current.flush());
    expect(sent().map((s) => s.files)).toEqual([
      [{ ord: 0, decisions: { [h1!]: 'reject' } }],
      [{ ord: 0, decisions: { [h1!]: 'reject' } }],
    ]);
    // Saved now: a further flush has nothing to send.
    await act(() => result.current.flush());
    expect(sent()).toHaveLength(2);
  });

  it('keeps a choice made while a save is in flight pending, and sends it after', async () => {
    const held = deferred<Result<unknown>>();
    let first = true;
    const { result, sent } = setup((input) => {
      if (!first) return ok(decided(p, input));
      first = false;
      return held.promise.then(() => ok(decided(p, input)));
    });
    act(() => result.current.set(0, [h1!], 'accept'));
    let saving!: Promise<void>;
    act(() => {
      saving = result.current.flush();
    });
    act(() => result.current.set(0, [h2!], 'reject'));
    held.resolve(ok(null));
    await act(() => saving);
    await act(() => result.current.flush());
    expect(sent().map((s) => s.files[0]?.decisions)).toEqual([{ [h1!]: 'accept' }, { [h1!]: 'accept', [h2!]: 'reject' }]);
  });

  it('saves what is pending when the view unmounts before the pause is over', async () => {
    const { result, unmount, sent } = setup((input) => ok(decided(p, input)));
    act(() => result.current.set(0, [h1!, h2!], 'accept'));
    unmount();
    // The request leaves after the view is gone, outside act: wait for it.
    await waitFor(() => expect(sent()).toEqual([{ id: 'p-1', files: [{ ord: 0, decisions: { [h1!]: 'accept', [h2!]: 'accept' } }] }]));
  });

  it('saves the pending choices of a proposal to that proposal when another one opens, and starts the new one clean', async () => {
    const other = proposal('p-2');
    const { result, rerender, sent } = setup((input) => ok(decided(input.id === 'p-1' ? p : other, input)));
    act(() => result.current.set(0, [h1!], 'accept'));
    rerender({ p: other });
    expect(result.current.of(0)).toEqual({});
    await waitFor(() => expect(sent()).toEqual([{ id: 'p-1', files: [{ ord: 0, decisions: { [h1!]: 'accept' } }] }]));
    await act(() => result.current.flush());
    expect(sent()).toHaveLength(1);
  });
});
