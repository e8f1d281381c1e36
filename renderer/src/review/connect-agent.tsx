// "Connect an agent": Codex, Claude Code or Cursor given `memory-studio mcp`, each through its own configuration
// changed as a proposal (reviewed and applied here like any other; every other entry of the file stays as it is).
import type { AgentConnection } from '../../../shared/agents';
import { useStudioMutation, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';

export interface ConnectAgentProps {
  onProposed: (id: string) => void;
  onCancel: () => void;
}

const STATE_TEXT: Record<AgentConnection['state'], string> = {
  connected: 'Connected: it starts this server.',
  'other-command': 'Names memory-studio with another command: connecting replaces that entry.',
  absent: 'Not connected yet.',
  unavailable: 'Cannot be connected here.',
};

function AgentRow({ agent, busy, onConnect }: { agent: AgentConnection; busy: boolean; onConnect: () => void }) {
  return (
    <li className="connect-agent-row" data-testid="connect-agent-row" data-agent={agent.agent} data-state={agent.state}>
      <div>
        <strong>{agent.label}</strong> <code className="small">{agent.path}</code>
        <p className="muted small">{agent.message ?? STATE_TEXT[agent.state]}</p>
      </div>
      <button
        type="button"
        className="button button-small"
        data-testid="connect-agent-propose"
        disabled={busy || agent.state === 'connected' || agent.state === 'unavailable'}
        onClick={onConnect}
      >
        Propose
      </button>
    </li>
  );
}

export function ConnectAgent({ onProposed, onCancel }: ConnectAgentProps) {
  const status = useStudioQuery('agents.status', {});
  const connect = useStudioMutation('agents.connect');
  return (
    <section className="note-composer" data-testid="connect-agent" aria-labelledby="connect-agent-title">
      <h3 id="connect-agent-title">Connect an agent</h3>
      <p className="muted small">
        The agent starts <code>memory-studio mcp</code> in every session: it can search, read and trace this memory, and what it proposes
        waits here for you. Its own configuration file changes as a proposal you review first.
      </p>
      {status.error ? (
        <ErrorPanel
          compact
          title="Cannot read the agents' configuration"
          error={toStudioError(status.error)}
          onRetry={() => void status.refetch()}
        />
      ) : null}
      {status.data ? (
        <ul className="connect-agent-list">
          {status.data.map((agent) => (
            <AgentRow
              key={agent.agent}
              agent={agent}
              busy={connect.isPending}
              onConnect={() => connect.mutate({ agent: agent.agent }, { onSuccess: (proposal) => onProposed(proposal.id) })}
            />
          ))}
        </ul>
      ) : status.isPending ? (
        <LoadingState inline label="Reading the agents' configuration…" />
      ) : null}
      {connect.error ? <ErrorPanel compact title="Cannot connect the agent" error={toStudioError(connect.error)} /> : null}
      <div className="apply-actions">
        <button type="button" className="button" onClick={onCancel}>
          Close
        </button>
      </div>
    </section>
  );
}
