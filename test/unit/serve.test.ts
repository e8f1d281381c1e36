// The serve host over real HTTP on 127.0.0.1: token before routing, Host/Origin refusals, contract dispatch, SSE events.
import { request } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStudioService, type StudioService } from '../../electron/core/service/service';
import { kindOfStatus, startServeHost, type ServeHandle } from '../../electron/host/serve';
import { makeTempDir } from './helpers';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

let temp: { dir: string; cleanup: () => Promise<void> };
let service: StudioService;
let handle: ServeHandle;
let root: string;

beforeAll(async () => {
  temp = await makeTempDir();
  const rendererDir = join(temp.dir, 'renderer');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Memory Studio</title>');
  await writeFile(join(rendererDir, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(temp.dir, 'secret.txt'), 'do not serve');
  root = join(temp.dir, 'home', 'memories');
  await mkdir(root, { recursive: true });
  await writeFile(join(root, 'memory_summary.md'), 'v1\n## User Profile\n');
  service = createStudioService({
    home: { codexHome: join(temp.dir, 'home'), source: 'flag' },
    dataDir: join(temp.dir, 'data'),
    host: 'serve',
    appVersion: '0.0.0-test',
    log: () => undefined,
  });
  handle = await startServeHost({ service, rendererDir });
});

afterAll(async () => {
  service.dispose();
  await handle.close();
  await temp.cleanup();
});

/** The kind a refusal by the transport carries, by its status. */
const STATUS_KINDS: Record<number, string> = {
  400: 'Invalid',
  401: 'Invalid',
  403: 'Invalid',
  404: 'NotFound',
  405: 'Unsupported',
  413: 'Invalid',
  415: 'Invalid',
  503: 'Busy',
  500: 'Internal',
};

const json = (token?: string) => ({ 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) });

describe('serve host', () => {
  it('prints a 127.0.0.1 URL that carries the token', () => {
    expect(handle.url).toBe(`http://127.0.0.1:${handle.port}/?token=${handle.token}`);
    expect(handle.token.length).toBeGreaterThanOrEqual(32);
  });

  it('serves the renderer with the strict CSP', async () => {
    const reply = await send(handle.port, '/');
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('Memory Studio');
    expect(reply.headers['content-security-policy']).toContain("script-src 'self'");
    expect(reply.headers['content-security-policy']).not.toContain('unsafe-eval');
    expect((await send(handle.port, '/assets/app.js')).status).toBe(200);
  });

  it('refuses static paths outside the renderer folder', async () => {
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const reply = await send(handle.port, path);
      expect(reply.status).toBe(404);
      expect(reply.body).not.toContain('do not serve');
    }
  });

  it('answers 401 to any /api/ request without the right token, before routing', async () => {
    for (const path of ['/api/home.get', '/api/no.such.channel', '/api/events', '/api']) {
      expect((await send(handle.port, path, { method: 'POST', headers: json(), body: '{}' })).status).toBe(401);
    }
    expect((await send(handle.port, '/api/home.get', { method: 'POST', headers: json('wrong'), body: '{}' })).status).toBe(401);
    expect((await send(handle.port, '/api/home.get?token=wrong', { method: 'POST', headers: json(), body: '{}' })).status).toBe(401);
  });

  it('answers 403 to a foreign Host (DNS rebinding) or Origin (cross-site), even with the token', async () => {
    const rebinding = await send(handle.port, '/api/home.get', {
      method: 'POST',
      headers: { ...json(handle.token), Host: `evil.example:${handle.port}` },
      body: '{}',
    });
    expect(rebinding.status).toBe(403);
    const crossSite = await send(handle.port, '/api/home.get', {
      method: 'POST',
      headers: { ...json(handle.token), Origin: 'http://evil.example' },
      body: '{}',
    });
    expect(crossSite.status).toBe(403);
    expect((await send(handle.port, '/', { headers: { Host: 'evil.example' } })).status).toBe(403);
  });

  it('dispatches contract channels with the token in the header or the query', async () => {
    const reply = await send(handle.port, '/api/home.get', { method: 'POST', headers: json(handle.token), body: '{}' });
    expect(reply.status).toBe(200);
    const result = JSON.parse(reply.body);
    expect(result.ok).toBe(true);
    expect(result.value.roots[0].exists).toBe(true);
    const viaQuery = await send(handle.port, `/api/workspace.read?token=${handle.token}`, {
      method: 'POST',
      headers: json(),
      body: JSON.stringify({ version: 'v1', path: 'memory_summary.md' }),
    });
    expect(JSON.parse(viaQuery.body).value.content).toBe('v1\n## User Profile\n');
  });

  it('returns errors as data for bad input, and transport errors for bad requests', async () => {
    const escape = await send(handle.port, '/api/workspace.read', {
      method: 'POST',
      headers: json(handle.token),
      body: JSON.stringify({ version: 'v1', path: '../secret.txt' }),
    });
    expect(JSON.parse(escape.body)).toMatchObject({ ok: false, error: { kind: 'Invalid' } });
    const schema = await send(handle.port, '/api/workspace.read', {
      method: 'POST',
      headers: json(handle.token),
      body: JSON.stringify({ version: 'v9' }),
    });
    expect(JSON.parse(schema.body)).toMatchObject({ ok: false, error: { kind: 'Invalid' } });
    const malformed = await send(handle.port, '/api/home.get', { method: 'POST', headers: json(handle.token), body: '{nope' });
    expect([malformed.status, JSON.parse(malformed.body).error.kind]).toEqual([400, 'Invalid']);
    const unknown = await send(handle.port, '/api/no.such', { method: 'POST', headers: json(handle.token), body: '{}' });
    expect([unknown.status, JSON.parse(unknown.body).error.kind]).toEqual([404, 'NotFound']);
    const get = await send(handle.port, '/api/home.get', { method: 'GET', headers: json(handle.token) });
    expect([get.status, JSON.parse(get.body).error.kind]).toEqual([405, 'Unsupported']);
    const plain = await send(handle.port, '/api/home.get', {
      method: 'POST',
      headers: { Authorization: `Bearer ${handle.token}`, 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expect([plain.status, JSON.parse(plain.body).error.kind]).toEqual([415, 'Invalid']);
    for (const status of [400, 401, 403, 404, 405, 413, 415, 503, 500])
      expect([status, kindOfStatus(status)]).toEqual([status, STATUS_KINDS[status]]);
  });

  it('streams workspace.changed over SSE when a memory file changes on disk', async () => {
    await send(handle.port, '/api/home.get', { method: 'POST', headers: json(handle.token), body: '{}' }); // starts the watcher
    const received = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no event within 5 s')), 5000);
      const req = request({ host: '127.0.0.1', port: handle.port, path: `/api/events?token=${handle.token}` }, (res) => {
        expect(res.headers['content-type']).toContain('text/event-stream');
        let buffer = '';
        res.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          if (buffer.includes(': connected')) void writeFile(join(root, 'MEMORY.md'), '# Task Group: x\n');
          const match = /data: (.*)\n\n/.exec(buffer);
          if (match) {
            clearTimeout(timer);
            req.destroy();
            resolve(match[1] as string);
          }
        });
      });
      req.on('error', () => undefined);
      req.end();
    });
    expect(JSON.parse(received)).toEqual({ event: 'workspace.changed', payload: { version: 'v1', paths: ['MEMORY.md'] } });
  });

  it('sends a long answer, serialized in turns, as the same JSON and byte length as one stringify', async () => {
    // More files than an answer's array is checked and serialized whole (64), with text outside ASCII in their names.
    await mkdir(join(root, 'rollout_summaries'), { recursive: true });
    for (let i = 0; i < 150; i++)
      await writeFile(join(root, 'rollout_summaries', `résumé-${String(i).padStart(3, '0')}.md`), `# ${i} — ü\n`);
    const reply = await send(handle.port, '/api/workspace.list', { method: 'POST', headers: json(handle.token), body: '{"version":"v1"}' });
    expect(reply.status).toBe(200);
    const direct = await service.dispatch('workspace.list', { version: 'v1' });
    expect(reply.body).toBe(JSON.stringify(direct));
    expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
    expect((JSON.parse(reply.body) as { value: { files: unknown[] } }).value.files.length).toBeGreaterThan(150);
  });
});

describe('serve host limits', () => {
  it('caps live-update streams, answers 413 to an oversized body, and cuts off a client that trickles its headers', async () => {
    const limited = await startServeHost({ service, rendererDir: join(temp.dir, 'renderer'), maxEventStreams: 3, headersTimeoutMs: 300 });
    const open: Array<ReturnType<typeof request>> = [];
    try {
      const openStream = () =>
        new Promise<number>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port: limited.port, path: `/api/events?token=${limited.token}` }, (res) => {
            if (res.statusCode !== 200) res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          req.end();
          open.push(req);
        });
      expect(await Promise.all([openStream(), openStream(), openStream()])).toEqual([200, 200, 200]);
      expect(await openStream()).toBe(503);
      // Closing one frees its place.
      open[0]?.destroy();
      await expect.poll(openStream, { timeout: 60_000 }).toBe(200);

      const big = 'x'.repeat(2 * 1024 * 1024);
      const tooLarge = await send(limited.port, '/api/home.get', {
        method: 'POST',
        headers: json(limited.token),
        body: JSON.stringify({ big }),
      });
      expect(tooLarge.status).toBe(413);
      expect(JSON.parse(tooLarge.body)).toMatchObject({ ok: false, error: { message: expect.stringContaining('larger than 1 MiB') } });
      // A channel that carries a file's text takes a body that size: an edit of a big file is proposed, as over IPC.
      const content = `v1\n## User Profile\n${'- a long memory line\n'.repeat(100_000)}`;
      const proposed = await send(limited.port, '/api/review.propose', {
        method: 'POST',
        headers: json(limited.token),
        body: JSON.stringify({ version: 'v1', path: 'memory_summary.md', content }),
      });
      expect(proposed.status).toBe(200);
      const made = JSON.parse(proposed.body) as { ok: boolean; value: { id: string; files: Array<{ relPath: string }> } };
      expect(made.ok).toBe(true);
      expect(made.value.files.map((f) => f.relPath)).toEqual(['memory_summary.md']);
      await service.call('review.reject', { id: made.value.id });

      // Slowloris: half a request line and never the rest. The server closes the socket on its own.
      const { connect } = await import('node:net');
      const closed = await new Promise<string>((resolve) => {
        const socket = connect(limited.port, '127.0.0.1', () => socket.write('POST /api/home.get HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
        let reply = '';
        socket.on('data', (chunk: Buffer) => (reply += chunk.toString()));
        socket.on('close', () => resolve(reply));
        socket.on('error', () => undefined);
      });
      expect(closed === '' || closed.startsWith('HTTP/1.1 408')).toBe(true);
    } finally {
      for (const req of open) req.destroy();
      await limited.close();
    }
  }, 300_000);
});
