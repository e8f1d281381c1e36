// End to end for an agent's proposal: `memory-studio mcp` (driven by the SDK's own client) files it, the running app
// finds it in the inbox with the agent's name, the Review tab counts it as new until it is opened, and no memory file
// changes before Apply.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, keepScreenshot, ready, repoRoot, test } from './fixtures';

function digest(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile())
      out[relative(dir, join(e.parentPath, e.name))] = createHash('sha256')
        .update(readFileSync(join(e.parentPath, e.name)))
        .digest('hex');
  }
  return out;
}

test('an agent proposal from memory-studio mcp shows in the inbox, counted as new until opened', async ({
  guardedPage: page,
  studio,
}, testInfo) => {
  await ready(page, studio.url);
  const roots = ['memories', 'memories_v2'].map((r) => join(studio.codexHome, r));
  const before = roots.map(digest);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(repoRoot, 'electron', 'host', 'bin.cjs'), 'mcp', '--codex-home', studio.codexHome, '--data-dir', studio.dataDir],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', MEMORY_STUDIO_NO_KEEPER: '1' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'codex-mcp-client', version: '0.171.0' });
  await client.connect(transport);
  try {
    const result = await client.callTool({
      name: 'memory_propose',
      arguments: { title: 'Staging needs the VPN', text: 'Deploys to staging hang at "waiting for lock" unless the office VPN is up.' },
    });
    expect(result.isError).toBeFalsy();
  } finally {
    await client.close();
  }
  // The app looks for other processes' proposals every 10 s: the badge appears without a reload.
  const badge = page.getByTestId('agent-badge');
  await expect(badge).toHaveText('1 new from agents');
  await keepScreenshot(page, testInfo, 'agent-badge');

  await page.locator('[data-testid="view-tab"][data-view="review"]').click();
  const row = page.getByTestId('proposal-item').filter({ hasText: 'Staging needs the VPN' });
  await expect(row.getByTestId('proposal-item-source')).toHaveText('codex-mcp-client 0.171.0');
  await expect(page.getByTestId('proposal-source')).toHaveText('codex-mcp-client 0.171.0');
  await expect(page.getByTestId('proposal-detail')).toContainText('Proposed by codex-mcp-client 0.171.0 through memory-studio mcp.');
  // Opened: no longer new.
  await expect(badge).toHaveCount(0);
  await keepScreenshot(page, testInfo, 'agent-proposal-inbox');
  expect(roots.map(digest)).toEqual(before);
});

test('Connect an agent proposes the change of Codex config.toml, applied under review', async ({ guardedPage: page, studio }, testInfo) => {
  await ready(page, studio.url);
  const path = join(studio.codexHome, 'config.toml');
  const before = readFileSync(path, 'utf8');
  await page.locator('[data-testid="view-tab"][data-view="review"]').click();
  await page.getByTestId('connect-agent-open').click();
  const codex = page.locator('[data-testid="connect-agent-row"][data-agent="codex"]');
  await expect(codex).toHaveAttribute('data-state', 'absent');
  await expect(codex).toContainText(path);
  await keepScreenshot(page, testInfo, 'connect-agent');
  await codex.getByTestId('connect-agent-propose').click();
  await expect(page.getByTestId('proposal-title')).toHaveText("Connect Codex to Memory Studio's MCP server");
  const file = page.getByTestId('proposal-file');
  await expect(file).toHaveAttribute('data-target', 'agent-config');
  await expect(file).toContainText('agent config');
  expect(readFileSync(path, 'utf8')).toBe(before);
  await page.getByRole('button', { name: /Accept file/ }).click();
  await page.getByTestId('apply-button').click();
  await expect(page.getByTestId('proposal-status')).toHaveText('applied');
  const after = readFileSync(path, 'utf8');
  expect(after.startsWith(before)).toBe(true);
  expect(after.slice(before.length)).toContain('[mcp_servers.memory-studio]');
  await keepScreenshot(page, testInfo, 'connect-agent-applied');
});
