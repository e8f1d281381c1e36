// Hybrid search against a real OpenAI-compatible /embeddings server on 127.0.0.1 (deterministic vectors from the text):
// off by default and then fully offline; once configured, a rephrased question finds a fact BM25 misses, in the
// service's search and in memory_search; no secret is ever sent; an endpoint that fails leaves BM25 with a note.
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveEmbeddingsSettings } from '../../../electron/core/embeddings/settings';
import { createStudioService, type StudioService } from '../../../electron/core/service/service';
import { generateHome, type HomeManifest } from '../../fixtures';
import { makeTempDir } from '../helpers';
import { sample, FAMILIES } from '../lint/secret-corpus';
import { bin, built, startServer } from '../mcp/mcp-client';

const NOTE = 'extensions/ad_hoc/notes/2026-03-04T05-06-07-billing-cutover.md';
const FACT = 'Billing deploys go through the blue-green cutover, never straight to prod.';
const QUESTION = 'how is invoicing released live';

/** Words of one meaning share a dimension: the fake model "understands" these paraphrases, nothing else. */
const CONCEPTS = [
  ['deploy', 'deploys', 'deployed', 'release', 'released', 'releases', 'ship', 'shipped'],
  ['billing', 'invoice', 'invoices', 'invoicing', 'payments'],
  ['production', 'prod', 'live'],
  ['cutover', 'switch', 'toggle'],
];
const DIMS = 48;

function vectorOf(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const concept = CONCEPTS.findIndex((c) => c.includes(word));
    if (concept >= 0) v[concept] = (v[concept] as number) + 1;
    else {
      let h = 0;
      for (const c of word) h = (h * 31 + c.charCodeAt(0)) >>> 0;
      const at = CONCEPTS.length + (h % (DIMS - CONCEPTS.length));
      v[at] = (v[at] as number) + 0.35;
    }
  }
  return v;
}

interface Recorded {
  authorization: string | undefined;
  input: string[];
}

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let manifest: HomeManifest;
let server: Server;
let baseUrl: string;
let failing = false;
const requests: Recorded[] = [];
let secret = '';

beforeAll(async () => {
  temp = await makeTempDir();
  manifest = await generateHome({ dir: join(temp.dir, 'home'), scale: 'small', version: 'v2', seed: 21, git: false });
  const root = join(manifest.codexHome, 'memories_v2');
  await mkdir(join(root, 'extensions', 'ad_hoc', 'notes'), { recursive: true });
  await writeFile(join(root, ...NOTE.split('/')), `# Billing cutover\n\n${FACT}\n`);
  const planted = sample(FAMILIES[0] as (typeof FAMILIES)[number]);
  secret = planted.secret;
  await appendFile(join(root, 'memory_summary.md'), `\n- deploy credentials:\n${planted.text}`);
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const parsed = JSON.parse(body) as { input: string[] };
      requests.push({ authorization: req.headers.authorization, input: parsed.input });
      if (failing || req.url !== '/v1/embeddings') {
        res.writeHead(failing ? 503 : 404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'model is loading' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ object: 'list', data: parsed.input.map((t, index) => ({ object: 'embedding', index, embedding: vectorOf(t) })) }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}, 300_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await temp?.cleanup();
});

function service(dataDir: string): StudioService {
  return createStudioService({
    home: { codexHome: manifest.codexHome, source: 'flag' },
    dataDir,
    host: 'serve',
    appVersion: 'test',
    watch: false,
    log: () => undefined,
    env: { ...process.env, TEST_EMBED_API_KEY: 'test-embed-key-123' },
  });
}

const paths = (hits: Array<{ relPath?: string; path?: string }>) => hits.map((h) => h.relPath ?? h.path);

describe('hybrid search', () => {
  it('is off by default: BM25 alone misses the rephrased question, and nothing is sent anywhere', async () => {
    const s = service(join(temp.dir, 'data-off'));
    try {
      const result = await s.call('search.query', { query: QUESTION, limit: 10 });
      expect(result.ranking).toBe('bm25');
      expect(paths(result.hits)).not.toContain(NOTE);
      expect((await s.call('search.query', { query: 'blue-green cutover' })).hits[0]?.relPath).toBe(NOTE);
      expect(requests).toEqual([]);
    } finally {
      s.dispose();
    }
  });

  it('with an endpoint configured, fuses BM25 and embeddings: the rephrased question finds the fact; no secret is sent', async () => {
    const dataDir = join(temp.dir, 'data-on');
    await saveEmbeddingsSettings(dataDir, { baseUrl, model: 'concepts', apiKeyEnv: 'TEST_EMBED_API_KEY' });
    const s = service(dataDir);
    try {
      const result = await s.call('search.query', { query: QUESTION, limit: 10 });
      expect(result.ranking).toBe('hybrid');
      expect(result.notes).toEqual([]);
      expect(paths(result.hits).slice(0, 3)).toContain(NOTE);
      const hit = result.hits.find((h) => h.relPath === NOTE);
      expect(hit?.line).toBe(1);
      // A query BM25 answers well stays answered well: the fact still comes first for its own words.
      expect((await s.call('search.query', { query: 'blue-green cutover' })).hits[0]?.relPath).toBe(NOTE);
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.every((r) => r.authorization === 'Bearer test-embed-key-123')).toBe(true);
      const sent = requests.flatMap((r) => r.input).join('\n');
      expect(sent).toContain(FACT);
      expect(sent).not.toContain(secret.slice(8, 20));
    } finally {
      s.dispose();
    }
  });

  it('memory_search ranks the same way in `memory-studio mcp --embeddings-base-url`, and refuses a plain-http remote host', async () => {
    const dataDir = join(temp.dir, 'data-mcp');
    const mcp = await startServer(
      ['--codex-home', manifest.codexHome, '--data-dir', dataDir, '--embeddings-base-url', baseUrl, '--embeddings-model', 'concepts'],
      undefined,
    );
    try {
      const result = await mcp.call('memory_search', { query: QUESTION });
      const out = result.structuredContent as { ranking: string; hits: Array<{ path: string }> };
      expect(out.ranking).toBe('hybrid');
      expect(paths(out.hits).slice(0, 3)).toContain(NOTE);
      expect(mcp.stderr()).toMatch(/Hybrid search: concepts at http:\/\/127\.0\.0\.1:\d+\/v1, no key/);
    } finally {
      await mcp.close();
    }
    const refused = spawnSync(process.execPath, [bin, 'mcp', '--data-dir', dataDir, '--embeddings-base-url', 'http://example.com/v1'], {
      encoding: 'utf8',
      input: '',
    });
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/must be https:\/\/, or http:\/\/ to this machine/);
  });

  it('falls back to BM25 with a note when the endpoint fails, and search still answers', async () => {
    const dataDir = join(temp.dir, 'data-failing');
    await saveEmbeddingsSettings(dataDir, { baseUrl, model: 'concepts', apiKeyEnv: null });
    failing = true;
    const s = service(dataDir);
    try {
      const result = await s.call('search.query', { query: 'blue-green cutover' });
      expect(result.ranking).toBe('bm25');
      expect(result.hits[0]?.relPath).toBe(NOTE);
      expect(result.notes.join(' ')).toMatch(/Ranked by BM25 alone: The embeddings endpoint .* answered 503: .*model is loading/);
    } finally {
      failing = false;
      s.dispose();
    }
  });
});

beforeAll(() => {
  if (!built) throw new Error('out/ is missing: run "npm run build" before the unit suite, as npm test does.');
});
