// The text edits that connect an agent: our entry added or replaced, every other byte of the file kept.
import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { withJsonServer } from '../../../electron/core/agent-config/json-edit';
import { jsonServerEntry, type ServerCommand } from '../../../electron/core/agent-config/targets';
import { codexServerTable, withCodexServer } from '../../../electron/core/agent-config/toml-edit';

const server: ServerCommand = {
  command: '/usr/bin/node',
  args: [
    '/opt/memory studio/electron/host/bin.cjs',
    'mcp',
    '--codex-home',
    '/home/dana/.codex',
    '--data-dir',
    '/home/dana/.config/Memory "Studio"',
  ],
};

const CODEX_CONFIG = `# Dana's Codex
model = "gpt-5.1-codex"   # keep this comment
approval_policy = "on-request"

[mcp_servers.github]
command = "npx"
args = [
  "-y",
  "@modelcontextprotocol/server-github",
]
env = { GITHUB_TOKEN_ENV = "GH" }

[mcp_servers.docs]
url = "https://docs.example.com/mcp"

[memories]
version = "v2"
`;

describe('Codex config.toml', () => {
  it('appends the table after everything else, which stays byte for byte, and Codex reads both servers', () => {
    const out = withCodexServer(CODEX_CONFIG, server, '/home/dana/.codex/config.toml');
    expect(out.startsWith(CODEX_CONFIG)).toBe(true);
    expect(out.slice(CODEX_CONFIG.length)).toBe(`\n${codexServerTable(server)}`);
    const parsed = parse(out) as { mcp_servers: Record<string, unknown>; memories: unknown };
    expect(Object.keys(parsed.mcp_servers)).toEqual(['github', 'docs', 'memory-studio']);
    expect(parsed.mcp_servers['memory-studio']).toEqual({ command: server.command, args: server.args });
    expect(parsed.memories).toEqual({ version: 'v2' });
  });

  it('replaces an older entry of ours in place, keeping the lines around it and its CRLF endings', () => {
    const crlf = CODEX_CONFIG.replace(
      '[mcp_servers.docs]',
      '[mcp_servers."memory-studio"]\ncommand = "node"\nargs = ["/old/bin.cjs", "mcp"]\n\n[mcp_servers.docs]',
    ).replace(/\n/g, '\r\n');
    const out = withCodexServer(crlf, server, 'config.toml');
    const [head, tail] = crlf.split('[mcp_servers."memory-studio"]') as [string, string];
    expect(out.startsWith(head)).toBe(true);
    expect(out.endsWith(tail.slice(tail.indexOf('\r\n\r\n[mcp_servers.docs]') + 2))).toBe(true);
    expect(out).toContain(codexServerTable(server, '\r\n'));
    expect(out.replace(/\r\n/g, '')).not.toContain('/old/bin.cjs');
    expect((parse(out) as { mcp_servers: Record<string, unknown> }).mcp_servers['memory-studio']).toEqual({
      command: server.command,
      args: server.args,
    });
  });

  it('appends to a config that has no MCP server yet (tables of its own, comments)', () => {
    const plain =
      '# mine\nmodel = "gpt-5.4"\n\n[features]\nmemories = true\n\n[projects."/home/dana/src/webapp"]\ntrust_level = "trusted"\n';
    const out = withCodexServer(plain, server, 'config.toml');
    expect(out).toBe(`${plain}\n${codexServerTable(server)}`);
    expect(withCodexServer(plain.trimEnd(), server, 'config.toml')).toBe(`${plain}\n${codexServerTable(server)}`);
  });

  it('creates the file, refuses one already connected, one that is not TOML, and an inline table it cannot extend', () => {
    expect(withCodexServer(null, server, 'config.toml')).toBe(codexServerTable(server));
    const connected = withCodexServer(CODEX_CONFIG, server, 'config.toml');
    expect(() => withCodexServer(connected, server, 'config.toml')).toThrow(/already starts memory-studio mcp/);
    expect(() => withCodexServer('model = \n[broken', server, 'config.toml')).toThrow(/not valid TOML \(line \d+\)/);
    expect(() => withCodexServer('mcp_servers = { github = { command = "npx" } }\n', server, 'config.toml')).toThrow(
      /cannot extend without rewriting other lines/,
    );
  });
});

const CLAUDE = `{
  "numStartups": 42,
  "theme": "dark",
  "projects": {
    "/home/dana/src/webapp": { "allowedTools": [], "mcpServers": {} }
  },
  "mcpServers": {
    "github": {
      "type": "stdio",
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github"],
      "env": {}
    }
  },
  "userID": "abc"
}
`;

describe('Claude Code and Cursor JSON', () => {
  it("adds our member after the other servers, in the file's indentation, every other byte kept", () => {
    const entry = jsonServerEntry('claude', server);
    const out = withJsonServer(CLAUDE, entry, '.claude.json');
    const at = CLAUDE.indexOf('\n  },\n  "userID"');
    expect(out.slice(0, at)).toBe(CLAUDE.slice(0, at));
    expect(out.endsWith(CLAUDE.slice(at))).toBe(true);
    expect(out.slice(at, out.length - (CLAUDE.length - at))).toBe(
      `,\n    "memory-studio": ${JSON.stringify(entry, null, 2).replace(/\n/g, '\n    ')}`,
    );
    const parsed = JSON.parse(out) as { mcpServers: Record<string, unknown>; projects: unknown };
    expect(Object.keys(parsed.mcpServers)).toEqual(['github', 'memory-studio']);
    expect(parsed.projects).toEqual(JSON.parse(CLAUDE).projects);
  });

  it('adds mcpServers to a file without it, replaces our old entry, and keeps tabs or one-line files as they are', () => {
    const entry = jsonServerEntry('cursor', server);
    const tabbed = '{\n\t"other": true\n}\n';
    const out = withJsonServer(tabbed, entry, 'mcp.json');
    expect(out.startsWith('{\n\t"other": true,\n\t"mcpServers": {\n\t\t"memory-studio": {\n\t\t\t"command"')).toBe(true);
    expect(JSON.parse(out)).toEqual({ other: true, mcpServers: { 'memory-studio': entry } });
    const old = '{"mcpServers":{"memory-studio":{"command":"node","args":["old"]},"x":{"command":"y"}}}';
    const replaced = withJsonServer(old, entry, 'mcp.json');
    expect(replaced).toBe(`{"mcpServers":{"memory-studio":${JSON.stringify(entry)},"x":{"command":"y"}}}`);
    expect(withJsonServer('{}', entry, 'mcp.json')).toBe(JSON.stringify({ mcpServers: { 'memory-studio': entry } }, null, 2));
    expect(withJsonServer('{ "mcpServers": {} }', entry, 'mcp.json')).toBe(`{ "mcpServers": {"memory-studio":${JSON.stringify(entry)}} }`);
  });

  it('refuses a file that is not a JSON object, an mcpServers that is not one, and one already connected', () => {
    const entry = jsonServerEntry('cursor', server);
    expect(() => withJsonServer('{ "a": 1, // comment\n}', entry, 'mcp.json')).toThrow(/not valid JSON/);
    expect(() => withJsonServer('[1, 2]', entry, 'mcp.json')).toThrow(/not a JSON object/);
    expect(() => withJsonServer('{ "mcpServers": [] }', entry, 'mcp.json')).toThrow(/not an object/);
    expect(() => withJsonServer(withJsonServer(null, entry, 'mcp.json'), entry, 'mcp.json')).toThrow(/already starts/);
  });
});
