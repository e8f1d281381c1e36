// What the MCP tools share: the service (reached only through its channels), the memory version to use, and answers.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ChannelInput, ChannelName, ChannelOutput } from '../../shared/contract';
import type { HomeInfo, MemoryVersion } from '../../shared/domain';
import { toStudioError } from '../core/platform/errors';
import type { StudioService } from '../core/service/service';

/** A refusal a tool answers with `isError`: what happened, and what to do next. */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}

export interface McpContext {
  /** The service, created on first need: initialize and the tool list are answered before core is even loaded. */
  studio(): Promise<StudioService>;
  /** `--version`: the root the tools use when a call names none. */
  fixedVersion: MemoryVersion | null;
  readOnly: boolean;
  /** Proposals one client may make in an hour before it is refused. */
  maxProposalsPerHour: number;
  /** The client's name and version from MCP's initialize (`clientInfo`), once it has initialized. */
  client(): { name: string; version: string | null } | null;
  log(line: string): void;
}

/** One channel of the service; a failure becomes a ToolFailure with the service's message and hint. */
export async function ask<C extends ChannelName>(ctx: McpContext, channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const result = await (await ctx.studio()).dispatch(channel, input);
  if (!result.ok) throw new ToolFailure(result.error.message, result.error.hint);
  return result.value as ChannelOutput<C>;
}

const homes = new WeakMap<McpContext, Promise<HomeInfo>>();

/**
 * The home as last inspected: `home.get` once, again only after the service says the home changed (a root appeared or
 * went, config.toml changed), so a search does not stat the home each time.
 */
export async function knownHome(ctx: McpContext): Promise<HomeInfo> {
  const cached = homes.get(ctx);
  if (cached) return cached;
  const service = await ctx.studio();
  const fresh = ask(ctx, 'home.get', {});
  homes.set(ctx, fresh);
  const stop = service.onEvent((event) => {
    if (event.event !== 'home.changed') return;
    homes.delete(ctx);
    stop();
  });
  fresh.catch(() => {
    homes.delete(ctx);
    stop();
  });
  return fresh;
}

/**
 * The version a call means: the one it names, else `--version`, else the one Codex reads in new sessions when that
 * root exists, else the only root there is. A home without memory is refused with where it looked.
 */
export function chooseVersion(ctx: McpContext, home: HomeInfo, requested?: MemoryVersion): MemoryVersion {
  const wanted = requested ?? ctx.fixedVersion;
  if (wanted) return wanted;
  const existing = home.roots.filter((r) => r.exists).map((r) => r.version);
  const configured = home.config.memories.version;
  if (existing.includes(configured)) return configured;
  const only = existing[0];
  if (only) return only;
  throw new ToolFailure(
    `${home.codexHome} has no memory folder (neither memories/ nor memories_v2/), so there is nothing to read yet.`,
    'Codex writes memory once the memories feature is on and sessions have been consolidated; or start the server with --codex-home DIR.',
  );
}

/** The absolute root folder of a version, for answers that name where a file is. */
export function rootOf(home: HomeInfo, version: MemoryVersion): string {
  return home.roots.find((r) => r.version === version)?.path ?? '';
}

/** A tool's answer: the structured result (checked by the SDK against the output schema) and the same as text. */
export function answer(structured: Record<string, unknown>, text: string): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** Runs a tool; any failure is an `isError` answer in plain words (an unexpected one is logged to stderr first). */
export async function guarded(ctx: McpContext, tool: string, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    const failure = error instanceof ToolFailure ? { message: error.message, hint: error.hint, kind: 'Invalid' } : toStudioError(error);
    if (failure.kind === 'Internal') ctx.log(`[mcp] ${tool}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return { content: [{ type: 'text', text: failure.hint ? `${failure.message}\n${failure.hint}` : failure.message }], isError: true };
  }
}
