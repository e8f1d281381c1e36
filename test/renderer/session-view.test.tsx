// The session view links each citation where core says it is (`entry.target`), and shows the rest unlinked: it no longer
// reads Codex's folder names or the file lists itself.
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MemoryVersion } from '../../shared/domain';
import { SessionReadingSchema } from '../../shared/sessions';
import { ok } from '../../shared/result';
import { studioCache } from '../../renderer/src/api/studio-query';
import { applyEvent } from '../../renderer/src/api/use-studio-events';
import { SessionView } from '../../renderer/src/session/session-view';
import type { LineSpan } from '../../renderer/src/navigation/location';
import { studioStub } from './support/studio-stub';

const THREAD = '019a1c2e-7b10-7c41-9a55-2f0e3d4b5a61';

const reading = SessionReadingSchema.parse({
  kind: 'session_rollout',
  path: `/home/dana/.codex/sessions/2026/03/02/rollout-2026-03-02T17-05-44-${THREAD}.jsonl`,
  threadId: THREAD,
  fileThreadId: THREAD,
  cwd: '/home/dana/src/invoice-svc',
  startedAt: null,
  lineCount: 12,
  bytes: 4096,
  assistantMessages: [],
  assistantMessageCount: 3,
  citations: [
    {
      line: 9,
      time: null,
      threadIds: [],
      entries: [
        // Core found MEMORY.md in v2 (a renderer reading the file lists might have picked another root).
        { path: 'MEMORY.md', lineStart: 4, lineEnd: 9, note: 'export tests', target: { version: 'v2', path: 'MEMORY.md' } },
        // Core found it nowhere, although its path names a root folder.
        { path: 'memories/rollout_summaries/pruned.md', lineStart: 1, lineEnd: 2, note: 'pruned', target: null },
      ],
    },
  ],
  diagnostics: [],
});

function show() {
  const opened: Array<{ version: MemoryVersion; path: string; span?: LineSpan }> = [];
  const stub = studioStub({ 'provenance.session': () => ok(reading) });
  render(
    <SessionView
      threadId={THREAD}
      onOpenFile={(version, path, span) => opened.push({ version, path, span })}
      onOpenSession={() => undefined}
      onOpenProposal={() => undefined}
      back={null}
    />,
    { wrapper: stub.wrapper },
  );
  return { opened, stub };
}

describe('session view', () => {
  it("links a citation to core's root and path and opens its lines", async () => {
    const { opened } = show();
    const link = await screen.findByTestId('citation-entry');
    expect(link.textContent).toBe('v2/MEMORY.md · lines 4–9');
    await userEvent.click(link);
    expect(opened).toEqual([{ version: 'v2', path: 'MEMORY.md', span: { line: 4, endLine: 9 } }]);
  });

  it('shows a citation core could not place as text, not as a link', async () => {
    show();
    expect(await screen.findByText('memories/rollout_summaries/pruned.md')).toBeTruthy();
    expect(screen.getByText('(not in any memory root)')).toBeTruthy();
    expect(screen.getAllByTestId('citation-entry')).toHaveLength(1);
  });

  it('asks core again when a memory root changes: which root holds a cited file may have changed with it', async () => {
    const { stub } = show();
    await screen.findByTestId('citation-entry');
    const asked = () => stub.calls.filter((c) => c.channel === 'provenance.session').length;
    expect(asked()).toBe(1);
    act(() => applyEvent(studioCache(stub.queryClient), { event: 'workspace.changed', payload: { version: 'v1', paths: ['MEMORY.md'] } }));
    await waitFor(() => expect(asked()).toBe(2));
  });
});
