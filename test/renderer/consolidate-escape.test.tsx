// Escape cancels a running consolidation only when the key is the Consolidate view's, never from elsewhere in the window.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConsolidatePage } from '../../renderer/src/consolidate/consolidate-page';
import { RunStatusSchema, type RunStatus } from '../../shared/consolidate';
import { fail, ok } from '../../shared/result';
import { studioStub } from './support/studio-stub';

const RUN_ID = 'c-0a1b2c3d';
const running: RunStatus = RunStatusSchema.parse({
  id: RUN_ID,
  version: 'v1',
  engine: 'builtin',
  model: null,
  state: 'running',
  phase: 'stage',
  phases: ['select', 'stage', 'engine', 'validate', 'diff'].map((phase, i) => ({
    phase,
    state: i === 0 ? 'done' : i === 1 ? 'running' : 'pending',
    startedAt: i < 2 ? 1 : null,
    endedAt: i === 0 ? 2 : null,
    detail: null,
  })),
  progress: 0.2,
  message: 'Staging the inputs…',
  log: [],
  startedAt: 1,
  endedAt: null,
  stagingDir: null,
  proposalId: null,
  validation: null,
  error: null,
  lease: { held: true, leaseUntil: null, note: 'held by this run' },
});
const unavailable = fail({ kind: 'Internal', message: 'Not part of this test.' });

function setup() {
  const stub = studioStub({
    'consolidate.runs': () => ok([running]),
    'consolidate.status': () => ok(running),
    'consolidate.cancel': () => ok({ ...running, state: 'cancelling' }),
    'consolidate.preview': () => unavailable,
    'consolidate.settings': () => unavailable,
  });
  render(
    <>
      {/* Another part of the window with its own field (the palette's input, say). */}
      <input aria-label="elsewhere" />
      <ConsolidatePage
        versions={['v1']}
        version="v1"
        onVersion={() => undefined}
        engine="builtin"
        onEngine={() => undefined}
        shownRunId={RUN_ID}
        onShowRun={() => undefined}
        onOpenProposal={() => undefined}
      />
    </>,
    { wrapper: stub.wrapper },
  );
  const cancels = () => stub.calls.filter((c) => c.channel === 'consolidate.cancel');
  // A cancel starts its mutation synchronously on the key: the cache says at once whether one began.
  const cancelStarted = () => stub.queryClient.getMutationCache().getAll().length > 0;
  return { cancels, cancelStarted };
}

describe('Escape on the Consolidate view', () => {
  it('does not cancel the run when Escape is pressed in another part of the window', async () => {
    const { cancels, cancelStarted } = setup();
    await screen.findByTestId('cancel-run');
    const elsewhere = screen.getByLabelText('elsewhere');
    elsewhere.focus();
    const notHandled = fireEvent.keyDown(elsewhere, { key: 'Escape' });
    expect(notHandled).toBe(true);
    expect(cancelStarted()).toBe(false);
    expect(cancels()).toEqual([]);
  });

  it('cancels the running run when Escape is pressed with nothing focused', async () => {
    const { cancels } = setup();
    await screen.findByTestId('cancel-run');
    fireEvent.keyDown(document.body, { key: 'Escape' });
    await waitFor(() => expect(cancels()).toEqual([{ channel: 'consolidate.cancel', input: { id: RUN_ID } }]));
  });

  it('cancels the running run when Escape is pressed on a control in the view', async () => {
    const { cancels } = setup();
    await screen.findByTestId('cancel-run');
    fireEvent.keyDown(screen.getByTestId('start-run'), { key: 'Escape' });
    await waitFor(() => expect(cancels()).toHaveLength(1));
  });

  it('leaves an Escape that something else already handled alone', async () => {
    const { cancelStarted } = setup();
    await screen.findByTestId('cancel-run');
    document.body.addEventListener('keydown', (event) => event.preventDefault(), { once: true, capture: true });
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(cancelStarted()).toBe(false);
  });
});
