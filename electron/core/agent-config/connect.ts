// Connecting an agent to `memory-studio mcp`: its own configuration file changed as a proposal (target `agent-config`),
// reviewed, applied and reverted through the one write path like a memory file or a project's AGENTS.md.
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import type { AgentConnection, AgentName } from '../../../shared/agents';
import type { HomeInfo } from '../../../shared/domain';
import type { Proposal } from '../../../shared/review';
import { readProjectFile } from '../codex/project-file';
import { StudioFailure, toStudioError } from '../platform/errors';
import { createProposal } from '../review';
import type { StudioDb } from '../studio-db';
import { jsonEntryOf, withJsonServer } from './json-edit';
import {
  AGENT_CONFIG_CAP_BYTES,
  AGENT_CONFIG_NAMES,
  AGENT_FOLDER,
  agentConfigTarget,
  jsonServerEntry,
  serverCommand,
  type AgentConfigTarget,
  type ServerCommand,
  type ServerLauncher,
} from './targets';
import { codexEntryOf, parseToml, withCodexServer } from './toml-edit';

export interface ConnectContext {
  home: HomeInfo;
  dataDir: string;
  /** How this host starts `memory-studio`; null where it cannot tell (then connecting is refused with why). */
  launcher: ServerLauncher | null;
  env?: NodeJS.ProcessEnv;
}

function launcherOf(ctx: ConnectContext): ServerLauncher {
  if (ctx.launcher) return ctx.launcher;
  throw new StudioFailure('Unsupported', 'This Memory Studio cannot tell which command starts its MCP server, so it connects no agent.', {
    hint: 'Run `memory-studio mcp --install AGENT` from the command line instead.',
  });
}

const memoryRoots = (home: HomeInfo) => home.roots.map((r) => r.path);

async function readTarget(target: AgentConfigTarget, home: HomeInfo) {
  return readProjectFile(target.root, target.relPath, memoryRoots(home), AGENT_CONFIG_NAMES, AGENT_FOLDER, AGENT_CONFIG_CAP_BYTES);
}

/** What the agent's file would say once connected, from its text now (null: absent). */
function connectedText(target: AgentConfigTarget, text: string | null, server: ServerCommand, path: string): string {
  return target.format === 'toml' ? withCodexServer(text, server, path) : withJsonServer(text, jsonServerEntry(target.agent, server), path);
}

/** Whether the file already starts this server, another command under our name, or nothing of ours. */
function stateOf(target: AgentConfigTarget, text: string, server: ServerCommand, path: string): AgentConnection['state'] {
  const entry = target.format === 'toml' ? codexEntryOf(parseToml(text, path)) : jsonEntryOf(text, path);
  if (entry === undefined) return 'absent';
  const wanted = target.format === 'toml' ? { command: server.command, args: server.args } : jsonServerEntry(target.agent, server);
  const current = target.format === 'toml' ? { command: (entry as ServerCommand).command, args: (entry as ServerCommand).args } : entry;
  return isDeepStrictEqual(current, wanted) ? 'connected' : 'other-command';
}

/** Every agent's configuration and whether it starts this server; a file that cannot be read says why. */
export async function agentConnections(ctx: ConnectContext): Promise<AgentConnection[]> {
  const out: AgentConnection[] = [];
  for (const agent of ['codex', 'claude', 'cursor'] as const) {
    const target = agentConfigTarget(agent, ctx.home.codexHome, ctx.env);
    const path = join(target.root, target.relPath);
    const base = { agent, label: target.label, path };
    try {
      const file = await readTarget(target, ctx.home);
      const server = serverCommand(launcherOf(ctx), ctx.home.codexHome, ctx.dataDir);
      const state = file ? stateOf(target, file.content, server, path) : 'absent';
      out.push({ ...base, exists: file !== null, state, message: null });
    } catch (error) {
      out.push({ ...base, exists: false, state: 'unavailable', message: toStudioError(error).message });
    }
  }
  return out;
}

/** The agent's configuration with this server added, as a pending proposal (source `connect`); nothing is written yet. */
export async function proposeConnection(db: StudioDb, ctx: ConnectContext, agent: AgentName): Promise<Proposal> {
  const target = agentConfigTarget(agent, ctx.home.codexHome, ctx.env);
  const path = join(target.root, target.relPath);
  const server = serverCommand(launcherOf(ctx), ctx.home.codexHome, ctx.dataDir);
  const file = await readTarget(target, ctx.home);
  const proposed = connectedText(target, file?.content ?? null, server, path);
  return createProposal(db, {
    title: `Connect ${target.label} to Memory Studio's MCP server`,
    source: 'connect',
    note: `${target.label} will start \`memory-studio mcp\` for ${ctx.home.codexHome} (its tools search, read and trace the curated memory; what it proposes waits in Review). Only the ${SERVER_ENTRY[target.format]} entry changes; everything else in ${path} stays byte for byte.`,
    files: [
      {
        version: ctx.home.config.memories.version,
        target: 'agent-config',
        root: target.root,
        relPath: target.relPath,
        proposedContent: proposed,
        // Refused if the file changes between the read above and the proposal's own read of it.
        expectedBaseSha256: file?.sha256 ?? null,
      },
    ],
  });
}

const SERVER_ENTRY = { toml: '[mcp_servers.memory-studio]', json: '"mcpServers" → "memory-studio"' } as const;
