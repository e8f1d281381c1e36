// Handlers for `agents.*`: which agents start `memory-studio mcp`, and connecting one as a proposal of its own config.
import { agentConnections, proposeConnection, type ConnectContext } from '../agent-config/connect';
import type { AreaHandlers, HandlerContext } from './context';

export function agentsHandlers(ctx: HandlerContext, env: NodeJS.ProcessEnv | undefined): AreaHandlers<'agents'> {
  const connecting = async (): Promise<ConnectContext> => ({
    home: await ctx.knownHome(),
    dataDir: ctx.dataDir,
    launcher: ctx.mcpLauncher,
    env,
  });
  return {
    'agents.status': async () => agentConnections(await connecting()),
    'agents.connect': async ({ agent }) => proposeConnection(ctx.studioDb(), await connecting(), agent),
  };
}
