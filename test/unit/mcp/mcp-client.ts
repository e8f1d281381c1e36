// Drives `memory-studio mcp` as a client does: the SDK's own Client over stdio, spawning bin.cjs against a home.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '..', '..', '..');
export const bin = join(repoRoot, 'electron', 'host', 'bin.cjs');
export const built = existsSync(join(repoRoot, 'out', 'electron', 'host', 'mcp.js'));

export interface RunningServer {
  client: Client;
  transport: StdioClientTransport;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Starts the server (bin.cjs, the built output) and completes MCP's initialize with the given client name. */
export async function startServer(
  args: string[],
  clientInfo = { name: 'vitest-agent', version: '1.2.3' },
  env: Record<string, string> = {},
): Promise<RunningServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', ...args],
    stderr: 'pipe',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', MEMORY_STUDIO_NO_KEEPER: '1', ...env },
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client(clientInfo);
  await client.connect(transport);
  return {
    client,
    transport,
    stderr: () => stderr,
    call: async (name, callArgs = {}) => (await client.callTool({ name, arguments: callArgs })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a tool's answer (its first text part). */
export function textOf(result: CallToolResult): string {
  const part = result.content[0];
  return part && part.type === 'text' ? part.text : '';
}

/**
 * SHA-256 of every file under a folder (symlinks marked), to prove nothing was written. SQLite's own sidecars are the
 * exception: any reader of a WAL database (Codex's too) creates an empty `-wal` and a `-shm` index, so `-shm` is left
 * out and an empty `-wal` counts as absent; a `-wal` holding frames (a write) still changes the digest.
 */
export function treeDigest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const abs = join(entry.parentPath, entry.name);
    if (entry.isFile() && entry.name.endsWith('.sqlite-shm')) continue;
    if (entry.isFile() && entry.name.endsWith('.sqlite-wal') && statSync(abs).size === 0) continue;
    if (entry.isFile()) out[relative(dir, abs)] = createHash('sha256').update(readFileSync(abs)).digest('hex');
    else if (entry.isSymbolicLink()) out[relative(dir, abs)] = 'symlink';
  }
  return out;
}
