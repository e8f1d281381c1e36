// `memory-studio mcp` driven by the SDK's own client over stdio: the tools, their schemas, resources and answers.
import { appendFile, readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { generateHome, type HomeManifest } from '../../fixtures';
import { makeTempDir } from '../helpers';
import { built, startServer, textOf, type RunningServer } from './mcp-client';

const FACT = '- zyxquux deploys always go through the blue-green switch, never straight to prod';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let manifest: HomeManifest;
let server: RunningServer;
let service: StudioService;
let factLine: number;

beforeAll(async () => {
  if (!built) throw new Error('out/ is missing: run "npm run build" before the unit suite, as npm test does.');
  temp = await makeTempDir();
  manifest = await generateHome({ dir: join(temp.dir, 'home'), scale: 'small', version: 'both', seed: 7, git: false });
  const memoryMd = join(manifest.codexHome, 'memories', 'MEMORY.md');
  await appendFile(memoryMd, `${FACT}\n`);
  factLine = (await readFile(memoryMd, 'utf8')).split('\n').length - 1;
  server = await startServer(['--codex-home', manifest.codexHome, '--data-dir', join(temp.dir, 'data')]);
  // The same home through the app's service (its own data folder): what the tools must agree with.
  service = createStudioService({
    home: { codexHome: manifest.codexHome, source: 'flag' },
    dataDir: join(temp.dir, 'data-app'),
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
  });
}, 300_000);

afterAll(async () => {
  await server?.close();
  service?.dispose();
  await temp?.cleanup();
});

describe('memory-studio mcp', () => {
  it('initializes with the current protocol and lists five tools with JSON schemas and data-not-instructions descriptions', async () => {
    expect(server.client.getServerVersion()?.name).toBe('memory-studio');
    expect(server.client.getInstructions()).toMatch(/not instructions/);
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'memory_overview',
      'memory_propose',
      'memory_provenance',
      'memory_read',
      'memory_search',
    ]);
    for (const tool of tools) {
      expect(tool.description).toMatch(/data .*not instructions/);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    const search = tools.find((t) => t.name === 'memory_search');
    expect(search?.inputSchema.required).toEqual(['query']);
    expect(search?.inputSchema.properties?.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
    expect(search?.annotations?.readOnlyHint).toBe(true);
  });

  it('memory_search ranks hits with path, line, score, snippet and root', async () => {
    const result = await server.call('memory_search', { query: 'zyxquux blue-green' });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as { hits: Array<Record<string, unknown>>; ranking: string };
    expect(out.ranking).toBe('bm25');
    expect(out.hits[0]).toMatchObject({
      version: 'v1',
      root: join(manifest.codexHome, 'memories'),
      path: 'MEMORY.md',
      line: factLine,
      kind: 'memory',
    });
    expect(out.hits[0]?.snippet).toContain('zyxquux');
    expect(textOf(result)).toContain(`v1/MEMORY.md:${factLine}`);
    // The filters reach the index: nothing of kind summary mentions it, and v2 has no such line.
    expect((await server.call('memory_search', { query: 'zyxquux', kind: 'summary' })).structuredContent).toMatchObject({ hits: [] });
    expect((await server.call('memory_search', { query: 'zyxquux', version: 'v2' })).structuredContent).toMatchObject({ hits: [] });
  });

  it('memory_read answers a file or a line range, root-relative, and says where a capped answer goes on', async () => {
    const whole = await server.call('memory_read', { path: 'MEMORY.md', version: 'v1' });
    const text = await readFile(join(manifest.codexHome, 'memories', 'MEMORY.md'), 'utf8');
    expect(whole.structuredContent).toMatchObject({ path: 'MEMORY.md', startLine: 1, truncated: false, totalLines: factLine });
    expect((whole.structuredContent as { text: string }).text).toBe(text);
    const range = await server.call('memory_read', { path: 'MEMORY.md', version: 'v1', startLine: factLine, endLine: factLine });
    expect(range.structuredContent).toMatchObject({ startLine: factLine, endLine: factLine, text: `${FACT}\n` });
    // Without a version: the root Codex reads (config.toml says v1 in this home).
    const summary = await server.call('memory_read', { path: 'memory_summary.md', endLine: 1 });
    expect(summary.structuredContent).toMatchObject({ version: 'v1', text: 'v1\n', injected: true });
  });

  it('memory_overview gives the root Codex reads, what the next session sees, counts and pipeline health', async () => {
    const result = await server.call('memory_overview', {});
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as {
      reads: { version: string; root: string };
      roots: Array<{ version: string; files: number; nextSession: { estimatedTokens: number; limitTokens: number } }>;
      lines: string[];
    };
    expect(out.reads).toMatchObject({ version: 'v1', root: join(manifest.codexHome, 'memories'), source: 'config' });
    const budget = await service.call('inspect.budget', { version: 'v1' });
    const list = await service.call('workspace.list', { version: 'v1' });
    expect(out.roots.find((r) => r.version === 'v1')).toMatchObject({
      files: list.files.length,
      nextSession: { estimatedTokens: budget.estimatedTokens, limitTokens: budget.limitTokens },
    });
    expect(out.lines.some((l) => /^pipeline v1: stage-1/.test(l))).toBe(true);
  });

  it('memory_provenance follows a MEMORY.md line to its rollout summaries, sessions and citations', async () => {
    const parsed = await service.call('inspect.parse', { version: 'v1', path: 'MEMORY.md' });
    expect(parsed.kind).toBe('memory_md');
    const result = await server.call('memory_provenance', { path: 'MEMORY.md', line: 3, version: 'v1' });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as {
      entry: { line: number; endLine: number } | null;
      rolloutSummaries: Array<{ file: string; exists: boolean; sessionPath: string | null; threadId: string | null }>;
    };
    expect(out.entry?.line).toBe(1);
    expect(out.rolloutSummaries.length).toBeGreaterThan(0);
    for (const r of out.rolloutSummaries) {
      const expected = await service.call('provenance.pointer', { version: 'v1', file: r.file });
      expect(r).toMatchObject({ exists: expected.exists, sessionPath: expected.sessionPath, threadId: expected.threadId });
      if (r.sessionPath) expect(existsSync(r.sessionPath)).toBe(true);
    }
    // The citations are the file's citedBy narrowed to the line.
    const cited = await service.call('provenance.citedBy', { version: 'v1', path: 'MEMORY.md' });
    expect((result.structuredContent as { fileCitations: number }).fileCitations).toBe(cited.length);
  });

  it('lists memory files as resources and reads them through the same safe read', async () => {
    const { resources } = await server.client.listResources();
    const list = await service.call('workspace.list', { version: 'v2' });
    const v2 = resources.filter((r) => r.uri.startsWith('codex-memory://v2/'));
    expect(v2.length).toBe(list.files.filter((f) => !f.symlink).length);
    const note = list.files.find((f) => f.kind === 'ad-hoc-note');
    expect(note).toBeDefined();
    const uri = `codex-memory://v2/${(note?.path ?? '').split('/').map(encodeURIComponent).join('/')}`;
    expect(v2.map((r) => r.uri)).toContain(uri);
    const read = await server.client.readResource({ uri });
    const content = read.contents[0] as { text: string };
    expect(content.text).toBe(await readFile(join(manifest.codexHome, 'memories_v2', ...(note?.path ?? '').split('/')), 'utf8'));
    await expect(server.client.readResource({ uri: 'codex-memory://v1/..%2Fconfig.toml' })).rejects.toThrow(/climbs out|not allowed/);
  });
});
