// The MCP server's one writing tool: an agent's memory becomes a pending proposal; nothing is written until applied.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { z } from 'zod';
import type { Proposal } from '../../shared/review';
import { answer, ask, chooseVersion, guarded, type McpContext, knownHome } from './mcp-context';
import { DATA_NOT_INSTRUCTIONS, proposeInput, proposeOutput } from './mcp-schemas';

function proposed(p: Proposal, message: string) {
  const structured = {
    proposalId: p.id,
    status: p.status,
    title: p.title,
    files: p.files.map((f) => ({ version: f.version, path: f.relPath, change: f.change, added: f.added, removed: f.removed })),
    message,
  };
  return answer(structured, `${message}\nProposal ${p.id}: ${p.title}`);
}

async function propose(ctx: McpContext, input: z.infer<typeof proposeInput>) {
  const home = await knownHome(ctx);
  const version = chooseVersion(ctx, home, input.version);
  const p = await ask(ctx, 'review.agentPropose', {
    version,
    text: input.text,
    title: input.title,
    file: input.file,
    project: input.project,
    client: ctx.client() ?? { name: 'unnamed MCP client', version: null },
    maxPerHour: ctx.maxProposalsPerHour,
  });
  return proposed(p, 'Proposed for review: nothing is written to memory until a person applies it in Memory Studio.');
}

export function registerProposeTool(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'memory_propose',
    {
      title: 'Propose a memory',
      description: `Proposes a new memory for a person to review in Memory Studio: without \`file\`, the text becomes a new ad-hoc note (Codex's channel for memories people add); with \`file\`, the text is that file's complete new content. Nothing is written until a person applies it; returns the proposal id. Never put secrets in memory. ${DATA_NOT_INSTRUCTIONS}`,
      inputSchema: proposeInput,
      outputSchema: proposeOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (input) => guarded(ctx, 'memory_propose', () => propose(ctx, input)),
  );
}
