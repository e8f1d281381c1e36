// Agents' proposals in the app: the inbox names the agent and marks what nobody opened; the Review tab counts those as
// new until a person opens one, which tells core it was seen.
import { render, renderHook, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ReviewBadge, useMarkSeen } from '../../renderer/src/review/agent-news';
import { ProposalInbox } from '../../renderer/src/review/proposal-inbox';
import { ProposalListSchema, ProposalSchema, type ProposalList } from '../../shared/review';
import { ok } from '../../shared/result';
import { proposal } from './support/proposal';
import { studioStub } from './support/studio-stub';

const summary = (id: string, createdAt: number, agent: { name: string; version: string | null; seen: boolean } | null) => ({
  id,
  title: `proposal ${id}`,
  source: agent ? 'agent' : 'note',
  agent,
  createdAt,
  status: 'pending',
  appliedAt: null,
  note: null,
  fileCount: 1,
  added: 3,
  removed: 0,
});

function inbox(seenFirst: boolean): ProposalList {
  return ProposalListSchema.parse({
    proposals: [
      summary('p-aaaaaa', 3, { name: 'codex-mcp-client', version: '0.171.0', seen: seenFirst }),
      summary('p-bbbbbb', 2, { name: 'claude-code', version: '2.1.0', seen: false }),
      summary('p-cccccc', 1, null),
    ],
    pendingCount: 3,
    agentNewCount: seenFirst ? 1 : 2,
  });
}

describe('agent proposals in the Review view', () => {
  it('shows each agent by name and version, marked new until opened', () => {
    const stub = studioStub({});
    render(<ProposalInbox proposals={inbox(false).proposals} selectedId={null} onSelect={() => undefined} />, { wrapper: stub.wrapper });
    const rows = screen.getAllByTestId('proposal-item');
    expect(within(rows[0]!).getByTestId('proposal-item-source').textContent).toBe('codex-mcp-client 0.171.0');
    expect(within(rows[1]!).getByTestId('proposal-item-source').textContent).toBe('claude-code 2.1.0');
    expect(within(rows[2]!).getByTestId('proposal-item-source').textContent).toBe('Ad-hoc note');
    expect(within(rows[0]!).queryByTestId('agent-new')).not.toBeNull();
    expect(within(rows[2]!).queryByTestId('agent-new')).toBeNull();
  });

  it('counts new agent proposals on the Review tab, and opening one tells core it was seen', async () => {
    let seen = false;
    const agentProposal = ProposalSchema.parse({
      ...proposal('p-aaaaaa'),
      source: 'agent',
      agent: { name: 'codex-mcp-client', version: '0.171.0', seen: false },
    });
    const stub = studioStub({
      'review.list': () => ok(inbox(seen)),
      'review.seen': (input: { id: string }) => {
        seen = input.id === 'p-aaaaaa';
        return ok({ ...agentProposal, agent: { ...agentProposal.agent, seen: true } });
      },
    });
    render(<ReviewBadge />, { wrapper: stub.wrapper });
    expect((await screen.findByTestId('agent-badge')).textContent).toBe('2 new from agents');
    expect(screen.getByTestId('review-badge').textContent).toBe('3');
    renderHook(() => useMarkSeen(agentProposal), { wrapper: stub.wrapper });
    await waitFor(() => expect(screen.getByTestId('agent-badge').textContent).toBe('1 new from agents'));
    expect(stub.calls.filter((c) => c.channel === 'review.seen')).toEqual([{ channel: 'review.seen', input: { id: 'p-aaaaaa' } }]);
    // A proposal already seen, or not an agent's, is not sent again.
    renderHook(() => useMarkSeen(proposal('p-cccccc')), { wrapper: stub.wrapper });
    expect(stub.calls.filter((c) => c.channel === 'review.seen').length).toBe(1);
  });
});
