// Apply after a failed decision save: the choices on screen are sent before Apply, or Apply does not run at all.
import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useApplyFlow } from '../../renderer/src/review/use-apply-flow';
import { useDecisions } from '../../renderer/src/review/use-decisions';
import { fail, ok, type Result } from '../../shared/result';
import { decided, proposal } from './support/proposal';
import { studioStub } from './support/studio-stub';

type DecideInput = { id: string; files: Array<{ ord: number; decisions: Record<string, string> }> };
const p = proposal();
const hunk = p.files[0]!.hunks[0]!.id;

function setup(decide: () => boolean) {
  const stub = studioStub({
    'review.decide': (input: DecideInput): Result<unknown> =>
      decide() ? ok(decided(p, input)) : fail({ kind: 'Busy', message: 'The review store is busy.' }),
    // The home changed meanwhile: Apply refuses (its own answer does not matter here, only what it was sent after).
    'review.apply': () =>
      fail({
        kind: 'Conflict',
        message: 'MEMORY.md changed on disk since you proposed this.',
        path: 'MEMORY.md',
        hint: 'Rebase, then apply.',
      }),
    'review.rebase': () => fail({ kind: 'Busy', message: 'The review store is busy.' }),
  });
  const hook = renderHook(
    () => {
      const decisions = useDecisions(p);
      return { decisions, flow: useApplyFlow(p, decisions) };
    },
    { wrapper: stub.wrapper },
  );
  return { ...hook, order: () => stub.calls.map((c) => c.channel).filter((c) => c !== 'home.get') };
}

describe('Apply and unsaved decisions', () => {
  it('sends again the decisions a failed save kept, before Apply', async () => {
    let attempts = 0;
    const { result, order } = setup(() => (attempts += 1) > 1);
    act(() => result.current.decisions.set(0, [hunk], 'accept'));
    await act(() => expect(result.current.decisions.flush()).rejects.toThrow());
    act(() => result.current.flow.apply());
    await waitFor(() => expect(result.current.flow.error?.kind).toBe('Conflict'));
    expect(order()).toEqual(['review.decide', 'review.decide', 'review.apply']);
  });

  it('does not apply when the decisions on screen still cannot be saved, and says why', async () => {
    const { result, order } = setup(() => false);
    act(() => result.current.decisions.set(0, [hunk], 'accept'));
    act(() => result.current.flow.apply());
    await waitFor(() => expect(result.current.flow.error?.message).toBe('The review store is busy.'));
    expect(order()).toEqual(['review.decide']);
    expect(result.current.decisions.of(0)).toEqual({ [hunk]: 'accept' });
  });

  it('sends one Apply for a double press while the decisions are still being saved, and shows that it is applying', async () => {
    const { result, order } = setup(() => true);
    act(() => result.current.decisions.set(0, [hunk], 'accept'));
    // Both presses through the object of one render, before any answer: the second is one too many.
    act(() => {
      const { flow } = result.current;
      flow.apply();
      flow.apply();
    });
    expect(result.current.flow.applying).toBe(true);
    await waitFor(() => expect(result.current.flow.error?.kind).toBe('Conflict'));
    expect(order()).toEqual(['review.decide', 'review.apply']);
    expect(result.current.flow.applying).toBe(false);
    // Once the first has its answer, Apply can be pressed again.
    act(() => result.current.flow.apply());
    await waitFor(() => expect(order()).toEqual(['review.decide', 'review.apply', 'review.apply']));
  });

  it('sends one rebase for a double press', async () => {
    const { result, order } = setup(() => true);
    act(() => {
      const { flow } = result.current;
      flow.rebase();
      flow.rebase();
    });
    expect(result.current.flow.rebasing).toBe(true);
    await waitFor(() => expect(result.current.flow.rebasing).toBe(false));
    expect(order()).toEqual(['review.rebase']);
  });
});
