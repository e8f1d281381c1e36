// Agents Memory Studio can connect to its MCP server (`memory-studio mcp`): each one's configuration and its state.
import { z } from 'zod';

export const agentNames = ['codex', 'claude', 'cursor'] as const;
export const AgentNameSchema = z.enum(agentNames);
export type AgentName = z.infer<typeof AgentNameSchema>;

/**
 * `connected`: the file already starts this server with this command; `other-command`: it names `memory-studio` with
 * another command (connecting replaces it); `absent`: not connected yet; `unavailable`: it cannot be connected here
 * (the folder is missing, the file cannot be read or edited), with why in `message`.
 */
export const AgentConnectionStateSchema = z.enum(['connected', 'other-command', 'absent', 'unavailable']);
export type AgentConnectionState = z.infer<typeof AgentConnectionStateSchema>;

export const AgentConnectionSchema = z.object({
  agent: AgentNameSchema,
  label: z.string(),
  /** The configuration file connecting it changes (it may not exist yet). */
  path: z.string(),
  exists: z.boolean(),
  state: AgentConnectionStateSchema,
  message: z.string().nullable(),
});
export type AgentConnection = z.infer<typeof AgentConnectionSchema>;
