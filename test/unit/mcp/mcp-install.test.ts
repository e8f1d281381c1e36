// `memory-studio mcp --install codex|claude|cursor` as a user runs it (bin.cjs): the agent's own configuration changed as a
// proposal, applied under the lock with its other MCP servers byte for byte, reverted back to the same bytes.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioService } from '../../../electron/core/service/service';
import { generateHome, type HomeManifest } from '../../fixtures';
import { makeTempDir } from '../helpers';
import { bin, built } from './mcp-client';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let manifest: HomeManifest;
let userHome: string;
let dataDir: string;

const OTHER_SERVERS = `
[mcp_servers.github]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]   # the team's
env = { GITHUB_PERSONAL_ACCESS_TOKEN_ENV = "GH_PAT" }

[mcp_servers."docs search"]
url = "https://docs.example.com/mcp"
startup_timeout_sec = 20
`;

function studio(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args, '--codex-home', manifest.codexHome, '--data-dir', dataDir, '--json'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: userHome, MEMORY_STUDIO_NO_KEEPER: '1' },
    timeout: 120_000,
  });
  let json: unknown = null;
  try {
    json = JSON.parse(result.stdout);
  } catch {
    json = null;
  }
  return { code: result.status, json: json as Record<string, unknown>, stderr: result.stderr, stdout: result.stdout };
}

/** Proposes, accepts every hunk and applies; returns the history entry id. */
function installAndApply(agent: string): string {
  const proposed = studio(['mcp', '--install', agent]);
  expect(proposed.code, proposed.stderr + proposed.stdout).toBe(0);
  expect(proposed.json).toMatchObject({ source: 'connect', status: 'pending' });
  const id = proposed.json.id as string;
  const applied = studio(['apply', id, '--accept', 'all']);
  expect(applied.code, applied.stderr + applied.stdout).toBe(0);
  return (applied.json.entry as { id: string }).id;
}

function revertAndApply(entryId: string): void {
  const reverted = studio(['revert', entryId]);
  expect(reverted.code, reverted.stderr).toBe(0);
  const applied = studio(['apply', reverted.json.id as string, '--accept', 'all']);
  expect(applied.code, applied.stderr + applied.stdout).toBe(0);
}

beforeAll(async () => {
  if (!built) throw new Error('out/ is missing: run "npm run build" before the unit suite, as npm test does.');
  temp = await makeTempDir();
  manifest = await generateHome({ dir: join(temp.dir, 'home'), scale: 'small', version: 'v2', seed: 4, git: false });
  userHome = join(temp.dir, 'user');
  dataDir = join(temp.dir, 'data');
  await mkdir(join(userHome, '.cursor'), { recursive: true });
}, 300_000);

afterAll(() => temp?.cleanup());

describe('memory-studio mcp --install', () => {
  it('codex: adds the server to a config.toml holding other MCP servers, which stay byte for byte, and reverts exactly', async () => {
    const path = join(manifest.codexHome, 'config.toml');
    const original = (await readFile(path, 'utf8')) + OTHER_SERVERS;
    await writeFile(path, original);
    const human = spawnSync(
      process.execPath,
      [bin, 'mcp', '--install', 'codex', '--codex-home', manifest.codexHome, '--data-dir', dataDir],
      {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, HOME: userHome, MEMORY_STUDIO_NO_KEEPER: '1' },
      },
    );
    expect(human.status, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^Proposed p-[0-9a-f]+: Connect Codex to Memory Studio's MCP server/);
    expect(human.stdout).toContain('+[mcp_servers.memory-studio]');
    expect(await readFile(path, 'utf8')).toBe(original); // a proposal writes nothing
    const reject = studio(['show', human.stdout.split(' ')[1]?.replace(':', '') ?? '']);
    expect(reject.json).toMatchObject({ files: [{ target: 'agent-config', root: manifest.codexHome, relPath: 'config.toml' }] });

    const entry = installAndApply('codex');
    const written = await readFile(path, 'utf8');
    expect(written.startsWith(original)).toBe(true);
    const servers = (parse(written) as { mcp_servers: Record<string, { command: string; args: string[] }> }).mcp_servers;
    expect(Object.keys(servers)).toEqual(['github', 'docs search', 'memory-studio']);
    expect(servers['memory-studio']).toEqual({
      command: process.execPath,
      args: [bin, 'mcp', '--codex-home', manifest.codexHome, '--data-dir', dataDir],
    });
    // Already connected: nothing to propose.
    const again = studio(['mcp', '--install', 'codex']);
    expect(again.code).toBe(1);
    expect(JSON.stringify(again.json)).toMatch(/already starts memory-studio mcp/);

    revertAndApply(entry);
    expect(await readFile(path, 'utf8')).toBe(original);
  });

  it('claude and cursor: their JSON gets the entry beside the others, and the app sees both as connected', async () => {
    const claudePath = join(userHome, '.claude.json');
    const claude =
      '{\n  "numStartups": 3,\n  "mcpServers": {\n    "github": {\n      "type": "stdio",\n      "command": "npx",\n      "args": []\n    }\n  },\n  "tipsHistory": {}\n}\n';
    await writeFile(claudePath, claude);
    installAndApply('claude');
    const claudeAfter = await readFile(claudePath, 'utf8');
    expect(claudeAfter.slice(0, claude.indexOf('\n  },\n  "tipsHistory"'))).toBe(
      claude.slice(0, claude.indexOf('\n  },\n  "tipsHistory"')),
    );
    expect(claudeAfter.endsWith('\n  },\n  "tipsHistory": {}\n}\n')).toBe(true);
    expect(JSON.parse(claudeAfter).mcpServers['memory-studio']).toMatchObject({ type: 'stdio', command: process.execPath });

    const entry = installAndApply('cursor'); // ~/.cursor exists, mcp.json does not: created
    const cursorPath = join(userHome, '.cursor', 'mcp.json');
    expect(JSON.parse(await readFile(cursorPath, 'utf8'))).toEqual({
      mcpServers: {
        'memory-studio': { command: process.execPath, args: [bin, 'mcp', '--codex-home', manifest.codexHome, '--data-dir', dataDir] },
      },
    });

    const service = createStudioService({
      home: { codexHome: manifest.codexHome, source: 'flag' },
      dataDir,
      host: 'serve',
      appVersion: 'test',
      watch: false,
      log: () => undefined,
      env: { ...process.env, HOME: userHome },
      mcpLauncher: { command: process.execPath, args: [bin] },
    });
    try {
      const states = await service.call('agents.status', {});
      expect(states.map((s) => [s.agent, s.state])).toEqual([
        ['codex', 'absent'],
        ['claude', 'connected'],
        ['cursor', 'connected'],
      ]);
    } finally {
      service.dispose();
    }
    // The revert of a created file deletes it (into the data folder's trash).
    revertAndApply(entry);
    expect(existsSync(cursorPath)).toBe(false);
  });

  it('refuses a symlinked config, an agent whose folder is missing, a file that is not JSON, and an unknown agent', async () => {
    const claudePath = join(userHome, '.claude.json');
    const real = join(temp.dir, 'dotfiles-claude.json');
    await writeFile(real, '{}\n');
    await import('node:fs/promises').then((fs) => fs.rm(claudePath));
    await symlink(real, claudePath);
    const linked = studio(['mcp', '--install', 'claude']);
    expect(linked.code).toBe(1);
    expect(JSON.stringify(linked.json)).toMatch(/is a symlink; Memory Studio never writes through a symlink/);
    expect(await readFile(real, 'utf8')).toBe('{}\n');

    await import('node:fs/promises').then((fs) => fs.rm(join(userHome, '.cursor'), { recursive: true }));
    const missing = studio(['mcp', '--install', 'cursor']);
    expect(missing.code).toBe(1);
    expect(JSON.stringify(missing.json)).toMatch(/configuration folder .*\.cursor does not exist/);

    await mkdir(join(userHome, '.cursor'));
    await writeFile(join(userHome, '.cursor', 'mcp.json'), '{ "mcpServers": { // mine\n} }');
    const broken = studio(['mcp', '--install', 'cursor']);
    expect(JSON.stringify(broken.json)).toMatch(/is not valid JSON/);

    const unknown = studio(['mcp', '--install', 'vscode']);
    expect(unknown.code).toBe(2);
    // Asked with --json, the usage error is JSON on stdout too.
    expect(unknown.json).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/--install must be one of codex, claude, cursor, not "vscode"/) },
    });
  });
});
