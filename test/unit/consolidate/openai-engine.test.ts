// The openai engine against a real local HTTP server speaking the streaming chat-completions wire format.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryVersion } from '../../../shared/domain';
import { defaultEngineSettings } from '../../../electron/core/consolidate/engine-settings';
import { createOpenAiEngine } from '../../../electron/core/consolidate/engines/openai';
import { parseAnswer } from '../../../electron/core/consolidate/engines/openai-answer';
import type { EngineRun } from '../../../electron/core/consolidate/types';
import { makeTempDir } from '../helpers';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Seen {
  headers: IncomingMessage['headers'];
  url: string | undefined;
  body: { model: string; stream: boolean; messages: { role: string; content: string }[] };
}

let server: Server;
let baseUrl: string;
let handlers: Handler[];
let seen: Seen[];
let dir: string;
let cleanup: () => Promise<void>;
let staging: string;

const engine = createOpenAiEngine({ baseDelayMs: 10 });
const SUMMARY =
  "v1\n\n## User Profile\nDana writes Python.\n\n## User preferences\n- explain failures first\n\n## General Tips\n- pin fonts\n\n## What's in Memory\n";

beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir());
  staging = join(dir, 'staging');
  await mkdir(join(staging, 'rollout_summaries'), { recursive: true });
  await writeFile(join(staging, 'memory_summary.md'), 'v1\n\n## User Profile\nold profile\n');
  await writeFile(join(staging, 'rollout_summaries', '2026-03-02T17-05-44-k3Qz-fix_pdf.md'), 'thread_id: t1\n\n# Fixed the PDF test.\n');
  await writeFile(join(staging, 'phase2_workspace_diff.md'), '# Memory Workspace Diff\n\n## Status\n- none\n');
  handlers = [];
  seen = [];
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      seen.push({ headers: req.headers, url: req.url, body: JSON.parse(body) as Seen['body'] });
      const handler = handlers.shift() ?? ((_q, r) => sse(r, answerChunks(`<file path="memory_summary.md">\n${SUMMARY}</file>\n`)));
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await cleanup();
});

/** The answer cut into uneven pieces (mid-line, mid-tag), as deltas, then a finish chunk with usage. */
function answerChunks(answer: string, size = 7): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < answer.length; i += size)
    chunks.push(JSON.stringify({ choices: [{ index: 0, delta: { content: answer.slice(i, i + size) }, finish_reason: null }] }));
  chunks.push(JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
  chunks.push(JSON.stringify({ choices: [], usage: { prompt_tokens: 900, completion_tokens: 120 } }));
  return chunks;
}

function sse(res: ServerResponse, chunks: string[], options: { done?: boolean } = {}): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  res.write(': keep-alive\n\n');
  for (const chunk of chunks) res.write(`data: ${chunk}\n\n`);
  if (options.done !== false) res.write('data: [DONE]\n\n');
  res.end();
}

function makeRun(
  patch: {
    signal?: AbortSignal;
    timeoutSeconds?: number;
    version?: MemoryVersion;
    apiKey?: string | null;
    env?: NodeJS.ProcessEnv;
    maxRetries?: number;
  } = {},
) {
  const logs: string[] = [];
  const progress: string[] = [];
  const settings = defaultEngineSettings();
  settings.engine = 'openai';
  settings.openai.baseUrl = baseUrl;
  settings.openai.model = 'test-model';
  settings.openai.timeoutSeconds = patch.timeoutSeconds ?? 30;
  settings.openai.maxRetries = patch.maxRetries ?? 4;
  const run: EngineRun = {
    version: patch.version ?? 'v1',
    stagingRoot: staging,
    settings,
    instructions: 'CONSOLIDATION RULES HERE',
    signal: patch.signal ?? new AbortController().signal,
    progress: (message) => progress.push(message),
    log: (line) => logs.push(line),
    env: patch.env ?? {},
    apiKey: patch.apiKey === undefined ? 'sk-test-key' : patch.apiKey,
  };
  return { run, logs, progress };
}

describe('openai engine', () => {
  it('streams the answer and writes memory_summary.md into staging', async () => {
    const { run, progress } = makeRun();
    const result = await engine(run);
    expect(await readFile(join(staging, 'memory_summary.md'), 'utf8')).toBe(SUMMARY);
    expect(result).toMatchObject({
      engine: 'openai',
      model: 'test-model',
      wrote: ['memory_summary.md'],
      usage: { inputTokens: 900, outputTokens: 120 },
    });
    expect(seen).toHaveLength(1);
    const request = seen[0] as Seen;
    expect(request.url).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer sk-test-key');
    expect(request.body).toMatchObject({ model: 'test-model', stream: true });
    const [system, user] = request.body.messages;
    expect(system?.role).toBe('system');
    expect(system?.content).toContain('CONSOLIDATION RULES HERE');
    expect(system?.content).toContain('<file path="memory_summary.md">');
    expect(user?.content).toContain('<file path="memory_summary.md">\nv1\n\n## User Profile\nold profile\n</file>');
    expect(user?.content).toContain('<file path="rollout_summaries/2026-03-02T17-05-44-k3Qz-fix_pdf.md">');
    expect(user?.content.indexOf('phase2_workspace_diff.md')).toBeLessThan(user?.content.indexOf('rollout_summaries/') ?? 0);
    expect(progress.some((p) => /Received \d+ characters/.test(p))).toBe(true);
  });

  it('takes the key from the environment variable when the host resolved none', async () => {
    const { run } = makeRun({ apiKey: null, env: { OPENAI_API_KEY: 'sk-from-env' } });
    await engine(run);
    expect(seen[0]?.headers.authorization).toBe('Bearer sk-from-env');
  });

  it('refuses to start without a key', async () => {
    const { run } = makeRun({ apiKey: null });
    await expect(engine(run)).rejects.toMatchObject({ kind: 'Invalid', message: expect.stringContaining('OPENAI_API_KEY') });
    expect(seen).toHaveLength(0);
  });

  it('retries after a 429 with Retry-After: 0', async () => {
    handlers.push((_req, res) => {
      res.writeHead(429, { 'Retry-After': '0', 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Rate limit reached' } }));
    });
    const { run, logs } = makeRun();
    const result = await engine(run);
    expect(seen).toHaveLength(2);
    expect(result.wrote).toEqual(['memory_summary.md']);
    expect(logs.some((l) => l.includes('Rate limit reached') && l.includes('Retrying in 0.0 s'))).toBe(true);
  });

  it('retries after a 500', async () => {
    handlers.push((_req, res) => {
      res.writeHead(500);
      res.end('upstream exploded');
    });
    const { run } = makeRun();
    await engine(run);
    expect(seen).toHaveLength(2);
  });

  it('gives up after maxRetries', async () => {
    for (let i = 0; i < 3; i++) {
      handlers.push((_req, res) => {
        res.writeHead(503);
        res.end('busy');
      });
    }
    const { run } = makeRun({ maxRetries: 2 });
    await expect(engine(run)).rejects.toMatchObject({ kind: 'Internal', message: expect.stringContaining('HTTP 503') });
    expect(seen).toHaveLength(3);
  });

  it('asks again without stream_options when the endpoint refuses them', async () => {
    handlers.push((_req, res) => {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Unrecognized request argument supplied: stream_options' } }));
    });
    const { run } = makeRun({ maxRetries: 0 });
    await engine(run);
    expect(seen).toHaveLength(2);
    expect(seen[0]?.body).toHaveProperty('stream_options');
    expect(seen[1]?.body).not.toHaveProperty('stream_options');
  });

  it('does not retry a refused key', async () => {
    handlers.push((_req, res) => {
      res.writeHead(401, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
    });
    const { run } = makeRun();
    await expect(engine(run)).rejects.toMatchObject({ kind: 'Invalid', message: expect.stringContaining('Incorrect API key provided') });
    expect(seen).toHaveLength(1);
  });

  it('fails clearly on a malformed stream', async () => {
    handlers.push((_req, res) => sse(res, ['{"choices":[{"delta":{"content":"<file pa"}}]}', '{not json']));
    const { run } = makeRun();
    await expect(engine(run)).rejects.toMatchObject({ kind: 'Internal', message: expect.stringContaining('malformed stream') });
    expect(await readFile(join(staging, 'memory_summary.md'), 'utf8')).toContain('old profile');
  });

  it('fails clearly when the stream ends without [DONE] or finish_reason', async () => {
    handlers.push((_req, res) =>
      sse(res, ['{"choices":[{"delta":{"content":"<file path=\\"memory_summary.md\\">\\nv1\\n"}}]}'], { done: false }),
    );
    const { run } = makeRun();
    await expect(engine(run)).rejects.toMatchObject({
      kind: 'Internal',
      message: expect.stringContaining('ended before the answer was complete'),
    });
  });

  it('times out when the server never answers', async () => {
    handlers.push(() => undefined);
    const { run } = makeRun({ timeoutSeconds: 1 });
    // The server never answers: only the 1 s limit can end this (else the test's own timeout fails it).
    await expect(engine(run)).rejects.toMatchObject({ kind: 'Internal', message: expect.stringContaining('did not finish within 1 s') });
  });

  it('cancels mid-stream at once', async () => {
    handlers.push((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: '<file path="memory_summary.md">\nv1\n' } }] })}\n\n`);
    });
    const controller = new AbortController();
    const { run, progress } = makeRun({ signal: controller.signal });
    const running = engine(run);
    running.catch(() => undefined);
    const start = Date.now();
    while (!progress.some((p) => p.startsWith('Received'))) {
      if (Date.now() - start > 60_000) throw new Error('no progress');
      await new Promise((r) => setTimeout(r, 10));
    }
    // The stream never ends: only the abort can settle the run (else the test's own timeout fails it).
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(await readFile(join(staging, 'memory_summary.md'), 'utf8')).toContain('old profile');
  });

  it('refuses paths outside the allowed set and writes only the allowed ones', async () => {
    const answer = [
      '<file path="../escape.md">\nevil\n</file>',
      '<file path="/tmp/memory-studio-absolute.md">\nevil\n</file>',
      '<file path="raw_memories.md">\nrewritten\n</file>',
      '<file path="MEMORY.md">\n# Task Group: not in v2\n</file>',
      '<file path=".git/config">\nevil\n</file>',
      `<file path="memory_summary.md">\n${SUMMARY}</file>`,
      'Done.',
    ].join('\n');
    handlers.push((_req, res) => sse(res, answerChunks(answer, 13)));
    const { run, logs } = makeRun({ version: 'v2' });
    const result = await engine(run);
    expect(result.wrote).toEqual(['memory_summary.md']);
    expect(logs.filter((l) => l.startsWith('Refused:'))).toHaveLength(5);
    expect(existsSync(join(dir, 'escape.md'))).toBe(false);
    expect(existsSync('/tmp/memory-studio-absolute.md')).toBe(false);
    expect(existsSync(join(staging, 'raw_memories.md'))).toBe(false);
    expect(existsSync(join(staging, 'MEMORY.md'))).toBe(false);
    expect(existsSync(join(staging, '.git'))).toBe(false);
  });

  it('writes v1 skills and MEMORY.md', async () => {
    const answer =
      '<file path="MEMORY.md">\n# Task Group: x\n</file>\n<file path="skills/pdf-fix/SKILL.md">\n---\nname: pdf-fix\n---\n</file>\n';
    handlers.push((_req, res) => sse(res, answerChunks(answer)));
    const { run } = makeRun();
    const result = await engine(run);
    expect(result.wrote).toEqual(['MEMORY.md', 'skills/pdf-fix/SKILL.md']);
    expect(await readFile(join(staging, 'skills', 'pdf-fix', 'SKILL.md'), 'utf8')).toBe('---\nname: pdf-fix\n---\n');
  });

  it('lists what the input budget left out', async () => {
    await writeFile(join(staging, 'rollout_summaries', '2026-01-01T00-00-00-Ab12-old.md'), 'x'.repeat(5000));
    const { run, logs } = makeRun();
    await createOpenAiEngine({ inputCharBudget: 3000 })(run);
    expect(logs.some((l) => l.startsWith('Left out for size:') && l.includes('2026-01-01T00-00-00-Ab12-old.md'))).toBe(true);
    expect(seen[0]?.body.messages[1]?.content).toContain('Left out for size');
  });
});

describe('answer parsing', () => {
  it('reports an unterminated block and a repeated path, and understands <no-changes/>', () => {
    const parsed = parseAnswer('<file path="a.md">\n1\n</file>\n<file path="a.md">\n2\n</file>\n<file path="b.md">\nno end');
    expect(parsed.files).toEqual([{ path: 'a.md', content: '2\n' }]);
    expect(parsed.problems).toHaveLength(2);
    expect(parseAnswer('<no-changes/>').noChanges).toBe(true);
  });
});
