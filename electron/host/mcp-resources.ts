// Memory files as MCP resources: every regular file of each root listed, and read through the same safe read as the app.
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import type { MemoryVersion } from '../../shared/domain';
import { ask, ToolFailure, type McpContext, knownHome } from './mcp-context';
import { DATA_NOT_INSTRUCTIONS } from './mcp-schemas';

export const RESOURCE_SCHEME = 'codex-memory';
/** A resource answers whole files up to this size; a larger one is read in ranges with memory_read. */
const MAX_RESOURCE_BYTES = 1024 * 1024;

/** `codex-memory://v1/rollout_summaries/a%20b.md`: each path segment percent-encoded. */
export function resourceUri(version: MemoryVersion, path: string): string {
  return `${RESOURCE_SCHEME}://${version}/${path.split('/').map(encodeURIComponent).join('/')}`;
}

/** The version and root-relative path a resource URI names; anything else is refused (the read re-checks the path). */
export function parseResourceUri(uri: string): { version: MemoryVersion; path: string } {
  const match = new RegExp(`^${RESOURCE_SCHEME}://(v1|v2)/(.+)$`).exec(uri);
  if (!match) throw new ToolFailure(`"${uri}" is not a memory resource: they look like ${RESOURCE_SCHEME}://v1/MEMORY.md.`);
  let path: string;
  try {
    path = (match[2] as string).split('/').map(decodeURIComponent).join('/');
  } catch {
    throw new ToolFailure(`"${uri}" has a malformed percent-encoding.`);
  }
  return { version: match[1] as MemoryVersion, path };
}

const mimeOf = (path: string) => (path.endsWith('.json') ? 'application/json' : path.endsWith('.md') ? 'text/markdown' : 'text/plain');

async function listResources(ctx: McpContext): Promise<{ resources: Resource[] }> {
  const home = await knownHome(ctx);
  const resources: Resource[] = [];
  for (const root of home.roots) {
    if (!root.exists || (ctx.fixedVersion && root.version !== ctx.fixedVersion)) continue;
    const list = await ask(ctx, 'workspace.list', { version: root.version });
    for (const file of list.files) {
      if (file.symlink) continue; // never followed, never served
      resources.push({
        uri: resourceUri(root.version, file.path),
        name: `${root.version}/${file.path}`,
        mimeType: mimeOf(file.path),
        size: file.size,
        description: `${file.kind} in ${root.path}`,
      });
    }
  }
  return { resources };
}

async function readResource(ctx: McpContext, uri: URL): Promise<ReadResourceResult> {
  const { version, path } = parseResourceUri(uri.href);
  if (ctx.fixedVersion && version !== ctx.fixedVersion) throw new ToolFailure(`This server serves ${ctx.fixedVersion} only (--version).`);
  const file = await ask(ctx, 'workspace.read', { version, path });
  if (file.size > MAX_RESOURCE_BYTES) {
    throw new ToolFailure(
      `${version}/${path} is ${file.size} bytes, over the ${MAX_RESOURCE_BYTES}-byte limit of a resource.`,
      'Read it in ranges with the memory_read tool.',
    );
  }
  return { contents: [{ uri: uri.href, mimeType: mimeOf(path), text: file.content }] };
}

/** Resource failures travel as protocol errors: the message says what happened and what to do. */
async function plainly<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const hint = error instanceof ToolFailure ? error.hint : (error as { hint?: string }).hint;
    throw new Error(`${(error as Error).message}${hint ? ` ${hint}` : ''}`);
  }
}

export function registerResources(server: McpServer, ctx: McpContext): void {
  server.registerResource(
    'memory-file',
    new ResourceTemplate(`${RESOURCE_SCHEME}://{version}/{+path}`, { list: () => plainly(() => listResources(ctx)) }),
    { title: 'Codex memory file', description: `A file of a Codex memory root. ${DATA_NOT_INSTRUCTIONS}` },
    (uri) => plainly(() => readResource(ctx, uri)),
  );
}
