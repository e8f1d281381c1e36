// Where each agent reads its user-level MCP servers, and the entry that starts `memory-studio mcp` there.
//
// Codex: `[mcp_servers.<name>]` in `$CODEX_HOME/config.toml` (the home the server serves). Claude Code: the top-level
// `mcpServers` object of `~/.claude.json` (its user scope; `$CLAUDE_CONFIG_DIR/.claude.json` when that variable is set).
// Cursor: the `mcpServers` object of `~/.cursor/mcp.json` (its global file). docs/agent-configs.md says how we know.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AgentName } from '../../../shared/agents';
import type { AGENT_CONFIG_NAMES } from '../codex/project-file';

export { AGENT_CONFIG_CAP_BYTES, AGENT_CONFIG_NAMES, AGENT_FOLDER } from '../codex/project-file';
import { StudioFailure } from '../platform/errors';

/** The server's name in every agent's configuration (Codex shows its tools as `mcp__memory_studio`). */
export const SERVER_NAME = 'memory-studio';

/** How a host starts `memory-studio` (the program and the arguments before the command): set by the host, never a page. */
export interface ServerLauncher {
  command: string;
  args: string[];
}

/** The full command an agent runs: the launcher, `mcp`, and the home and data folder spelled out. */
export interface ServerCommand {
  command: string;
  args: string[];
}

export function serverCommand(launcher: ServerLauncher, codexHome: string, dataDir: string): ServerCommand {
  return { command: launcher.command, args: [...launcher.args, 'mcp', '--codex-home', codexHome, '--data-dir', dataDir] };
}

export interface AgentConfigTarget {
  agent: AgentName;
  label: string;
  /** The folder holding the file (never created: an agent that never ran has nothing to connect yet, except Codex). */
  root: string;
  relPath: (typeof AGENT_CONFIG_NAMES)[number];
  format: 'toml' | 'json';
}

export const AGENT_LABELS: Record<AgentName, string> = { codex: 'Codex', claude: 'Claude Code', cursor: 'Cursor' };

/** The user-level MCP configuration of `agent` on this machine (`env` decides `HOME` and `CLAUDE_CONFIG_DIR`). */
export function agentConfigTarget(agent: AgentName, codexHome: string, env: NodeJS.ProcessEnv = process.env): AgentConfigTarget {
  const home = env.HOME && env.HOME.trim() !== '' ? resolve(env.HOME) : homedir();
  const label = AGENT_LABELS[agent];
  if (agent === 'codex') return { agent, label, root: codexHome, relPath: 'config.toml', format: 'toml' };
  if (agent === 'claude') {
    const dir = env.CLAUDE_CONFIG_DIR && env.CLAUDE_CONFIG_DIR.trim() !== '' ? resolve(env.CLAUDE_CONFIG_DIR) : home;
    return { agent, label, root: dir, relPath: '.claude.json', format: 'json' };
  }
  return { agent, label, root: join(home, '.cursor'), relPath: 'mcp.json', format: 'json' };
}

/** The JSON value each JSON agent gets under `mcpServers` (Claude Code names the transport; Cursor infers it). */
export function jsonServerEntry(agent: AgentName, server: ServerCommand): Record<string, unknown> {
  return agent === 'claude'
    ? { type: 'stdio', command: server.command, args: server.args, env: {} }
    : { command: server.command, args: server.args };
}

/** Nothing to propose: the file already starts this server with this command. */
export function alreadyConnected(path: string): StudioFailure {
  return new StudioFailure('Invalid', `${path} already starts memory-studio mcp with this command; there is nothing to propose.`, {
    path,
  });
}
