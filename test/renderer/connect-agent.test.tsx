// "Connect an agent": each agent's configuration file and state from core; Propose asks core for the proposal (the
// command written is core's, the page only names the agent) and opens it; a connected or unavailable agent cannot be.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ConnectAgent } from '../../renderer/src/review/connect-agent';
import { AgentConnectionSchema } from '../../shared/agents';
import { ProposalSchema } from '../../shared/review';
import { ok } from '../../shared/result';
import { proposal } from './support/proposal';
import { studioStub } from './support/studio-stub';

const agents = [
  { agent: 'codex', label: 'Codex', path: '/home/dana/.codex/config.toml', exists: true, state: 'absent', message: null },
  { agent: 'claude', label: 'Claude Code', path: '/home/dana/.claude.json', exists: true, state: 'connected', message: null },
  {
    agent: 'cursor',
    label: 'Cursor',
    path: '/home/dana/.cursor/mcp.json',
    exists: false,
    state: 'unavailable',
    message: "The agent's configuration folder /home/dana/.cursor does not exist on this machine.",
  },
].map((a) => AgentConnectionSchema.parse(a));

describe('Connect an agent', () => {
  it('lists each agent with its file and state, and proposes the connection of one', async () => {
    const connection = ProposalSchema.parse({
      ...proposal('p-c0ffee'),
      source: 'connect',
      title: "Connect Codex to Memory Studio's MCP server",
    });
    const stub = studioStub({ 'agents.status': () => ok(agents), 'agents.connect': () => ok(connection) });
    const opened: string[] = [];
    render(<ConnectAgent onProposed={(id) => opened.push(id)} onCancel={() => undefined} />, { wrapper: stub.wrapper });
    const rows = await screen.findAllByTestId('connect-agent-row');
    expect(rows.map((r) => r.dataset.state)).toEqual(['absent', 'connected', 'unavailable']);
    expect(within(rows[0]!).getByText('/home/dana/.codex/config.toml')).toBeTruthy();
    expect(within(rows[2]!).getByText(/does not exist on this machine/)).toBeTruthy();
    const buttons = rows.map((r) => within(r).getByTestId('connect-agent-propose') as HTMLButtonElement);
    expect(buttons.map((b) => b.disabled)).toEqual([false, true, true]);
    await userEvent.click(buttons[0]!);
    await waitFor(() => expect(opened).toEqual(['p-c0ffee']));
    expect(stub.calls.filter((c) => c.channel === 'agents.connect')).toEqual([{ channel: 'agents.connect', input: { agent: 'codex' } }]);
  });
});
