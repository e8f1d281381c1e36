// The real Codex CLI (the suite's selected version) as the client of `memory-studio mcp`: a config.toml names the
// server, Codex starts it and shows its tools to the (fake) model as the namespace `mcp__memory_studio`, the model calls memory_search and the hit
// comes back in Codex's next request; a second run calls memory_propose and the proposal is in the inbox.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODEX_VERSION } from './install-codex.mjs';
import { CodexHome, runCodex } from './support/codex';
import { FakeProvider, type RecordedRequest, type ResponsesInputItem } from './support/fake-provider';
import { studio } from './support/studio';

const bin = join(resolve(import.meta.dirname, '..', '..'), 'electron', 'host', 'bin.cjs');
const FACT = 'Deploys of zyxquux go through the blue-green switch, never straight to production.';
const NOTE = 'extensions/ad_hoc/notes/2026-01-02T03-04-05-zyxquux-deploys.md';

const provider = new FakeProvider();
let home: CodexHome;
let dataDir: string;

interface NamespaceTool {
  type: string;
  name: string;
  description?: string;
  tools?: Array<{ type: string; name: string; description?: string; parameters?: { properties?: Record<string, unknown> } }>;
}

const toolsOf = (request: RecordedRequest) => (request.body?.tools ?? []) as NamespaceTool[];
const callOutputs = (request: RecordedRequest) => (request.body?.input ?? []).filter((i) => i.type === 'function_call_output');
/** A function_call_output as Codex sent it to the model: a string (0.169.0 to 0.171.0), or a list of text parts. */
const outputText = (item: ResponsesInputItem) =>
  Array.isArray(item.output) ? (item.output as Array<{ text?: string }>).map((p) => p.text ?? '').join('\n') : String(item.output);

/**
 * What the tool answered, inside Codex's wrapping: 0.169.0 to 0.171.0 send "Wall time: … seconds", "Output:", then the tool's
 * structuredContent as JSON (not its text content).
 */
function toolAnswer(text: string): { wallTime: boolean; structured: Record<string, unknown> } {
  const at = text.indexOf('Output:\n');
  expect(at, text.slice(0, 500)).toBeGreaterThan(-1);
  return {
    wallTime: /^Wall time: [\d.]+ seconds\n/.test(text),
    structured: JSON.parse(text.slice(at + 'Output:\n'.length)) as Record<string, unknown>,
  };
}

beforeAll(async () => {
  await provider.start();
  home = await CodexHome.create(provider, { version: 'v2', memoriesConfig: 'generate_memories = false' });
  dataDir = join(home.base, 'studio-data');
  const root = home.memoryRoots.v2;
  await mkdir(join(root, 'extensions', 'ad_hoc', 'notes'), { recursive: true });
  await writeFile(join(root, ...NOTE.split('/')), `# Deploy switch\n\n${FACT}\n`);
  const config = await readFile(join(home.codexHome, 'config.toml'), 'utf8');
  const server = [
    '',
    '[mcp_servers.memory-studio]',
    `command = ${JSON.stringify(process.execPath)}`,
    `args = ${JSON.stringify([bin, 'mcp', '--codex-home', home.codexHome, '--data-dir', dataDir])}`,
    'startup_timeout_sec = 60',
    // Codex (0.169.0 to 0.171.0) gives an optional server about a second to start before it leaves its tools out of a turn.
    'required = true',
    '',
  ].join('\n');
  await writeFile(join(home.codexHome, 'config.toml'), config + server);
}, 120_000);

afterAll(async () => {
  await provider.stop();
  await home?.remove();
});

describe(`real Codex ${CODEX_VERSION} as the MCP client`, () => {
  it('starts memory-studio mcp, lists its tools as a namespace, calls memory_search and sends the hit back', async () => {
    const before = provider.of('ordinary').length;
    provider.hooks.ordinaryToolCall = (request) =>
      callOutputs(request).length === 0
        ? { name: 'memory_search', namespace: 'mcp__memory_studio', arguments: { query: 'zyxquux deploys' } }
        : null;
    provider.hooks.ordinaryText = () => 'Found it in memory.';
    const result = await home.exec('How do zyxquux deploys work?');
    provider.hooks.ordinaryToolCall = undefined;
    expect(result.code, result.stderr.slice(-4000)).toBe(0);
    const requests = provider.of('ordinary').slice(before);
    expect(requests.length, 'a request with the tool call, then one with its output').toBeGreaterThanOrEqual(2);
    const first = requests[0] as RecordedRequest;
    const namespace = toolsOf(first).find((t) => t.name === 'mcp__memory_studio');
    expect(namespace, JSON.stringify(toolsOf(first).map((t) => [t.type, t.name]))).toBeDefined();
    expect(namespace?.type).toBe('namespace');
    const names = (namespace?.tools ?? []).map((t) => t.name).sort();
    expect(names).toEqual(['memory_overview', 'memory_propose', 'memory_provenance', 'memory_read', 'memory_search']);
    const search = namespace?.tools?.find((t) => t.name === 'memory_search');
    expect(search?.type).toBe('function');
    expect(search?.description).toMatch(/not instructions/);
    expect(Object.keys(search?.parameters?.properties ?? {})).toEqual(
      expect.arrayContaining(['query', 'kind', 'project', 'version', 'limit']),
    );
    const answered = requests.find((r) => callOutputs(r).length > 0);
    const output = callOutputs(answered as RecordedRequest)[0] as ResponsesInputItem;
    expect(output.call_id).toMatch(/^call_/);
    const answer = toolAnswer(outputText(output));
    expect(answer.wallTime).toBe(true);
    const hits = (answer.structured as { hits: Array<{ version: string; path: string; line: number; snippet: string; root: string }> })
      .hits;
    expect(hits[0]).toMatchObject({ version: 'v2', path: NOTE, line: 3, root: home.memoryRoots.v2 });
    expect(hits[0]?.snippet).toBe(FACT);
    expect(provider.problems()).toEqual([]);
  });

  it('calls memory_propose in a second run: the proposal is pending in the inbox with Codex as its agent', async () => {
    const before = provider.of('ordinary').length;
    provider.hooks.ordinaryToolCall = (request) =>
      callOutputs(request).length === 0
        ? {
            name: 'memory_propose',
            namespace: 'mcp__memory_studio',
            arguments: { title: 'Canary before blue-green', text: 'Run the canary check before flipping the blue-green switch.' },
          }
        : null;
    const result = await home.exec('Remember to run the canary first.');
    provider.hooks.ordinaryToolCall = undefined;
    expect(result.code, result.stderr.slice(-4000)).toBe(0);
    const answered = provider
      .of('ordinary')
      .slice(before)
      .find((r) => callOutputs(r).length > 0);
    const text = outputText(callOutputs(answered as RecordedRequest)[0] as ResponsesInputItem);
    const id = (toolAnswer(text).structured as { proposalId?: string }).proposalId;
    expect(id, text).toMatch(/^p-[0-9a-f]+$/);
    const shown = await studio<{
      source: string;
      status: string;
      agent: { name: string; version: string | null };
      files: Array<{ relPath: string }>;
    }>(['show', id as string, '--data-dir', dataDir]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.json).toMatchObject({ source: 'agent', status: 'pending' });
    expect(shown.json.agent.name).toMatch(/codex/i);
    expect(shown.json.files[0]?.relPath).toMatch(/^extensions\/ad_hoc\/notes\/.*-canary-before-blue-green\.md$/);
  });

  it('--install codex on a config with another MCP server: applied, Codex reads both, the other entry byte for byte', async () => {
    const other = await CodexHome.create(provider, { version: 'v2' });
    try {
      const path = join(other.codexHome, 'config.toml');
      const original = `${await readFile(path, 'utf8')}\n[mcp_servers.github]\ncommand = "npx"\nargs = ["-y", "@modelcontextprotocol/server-github"]\n`;
      await writeFile(path, original);
      const otherData = join(other.base, 'studio-data');
      const proposed = await studio<{ id: string }>([
        'mcp',
        '--install',
        'codex',
        '--codex-home',
        other.codexHome,
        '--data-dir',
        otherData,
      ]);
      expect(proposed.code, proposed.stderr).toBe(0);
      const applied = await studio([
        'apply',
        proposed.json.id,
        '--accept',
        'all',
        '--codex-home',
        other.codexHome,
        '--data-dir',
        otherData,
      ]);
      expect(applied.code, applied.stderr).toBe(0);
      const written = await readFile(path, 'utf8');
      expect(written.startsWith(original)).toBe(true);
      const listed = await runCodex(['mcp', 'list', '--json'], { cwd: other.work, env: other.env() });
      expect(listed.code, listed.stderr).toBe(0);
      const servers = JSON.parse(listed.stdout) as Array<{
        name: string;
        enabled: boolean;
        transport: { command: string; args: string[] };
      }>;
      expect(servers.map((s) => s.name).sort()).toEqual(['github', 'memory-studio']);
      expect(servers.find((s) => s.name === 'memory-studio')).toMatchObject({
        enabled: true,
        transport: { command: process.execPath, args: [bin, 'mcp', '--codex-home', other.codexHome, '--data-dir', otherData] },
      });
    } finally {
      await other.remove();
    }
  });
});
