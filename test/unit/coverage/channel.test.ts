// `coverage.get` through the service (as the app reaches it) and the serve host over real HTTP: validated input, the
// contract's output, the same ledger the core builds, and bad input as data.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectHome } from '../../../electron/core/codex/home';
import { buildCoverage } from '../../../electron/core/coverage';
import { startServeHost, type ServeHandle } from '../../../electron/host/serve';
import { channelNames } from '../../../shared/contract';
import { CoverageReportSchema } from '../../../shared/coverage';
import { openGeneratedHome, type GeneratedHomeService } from '../helpers';

let g: GeneratedHomeService;
beforeAll(async () => {
  g = await openGeneratedHome({ scale: 'small', version: 'v2', seed: 5, git: false });
});
afterAll(() => g.dispose());

function post(handle: ServeHandle, channel: string, body: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: handle.port,
        path: `/api/${channel}`,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${handle.token}` },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('coverage.get', () => {
  it('is a channel of the contract', () => {
    expect(channelNames).toContain('coverage.get');
  });

  it('answers the ledger of the version Codex writes, as the core builds it', async () => {
    const report = await g.service.call('coverage.get', {});
    expect(() => CoverageReportSchema.parse(report)).not.toThrow();
    const home = await inspectHome({ codexHome: g.manifest.codexHome, source: 'flag' }, {});
    expect(report.version).toBe(home.config.memories.version);
    const direct = await buildCoverage(home, {}, report.generatedAt.seconds);
    expect(report.totals).toEqual(direct.totals);
    expect(report.threads.map((t) => [t.threadId, t.stage])).toEqual(direct.threads.map((t) => [t.threadId, t.stage]));
    const recent = await g.service.call('coverage.get', { version: 'v2', sinceDays: 2 });
    expect(recent.sinceDays).toBe(2);
    expect(recent.threads.length).toBeLessThan(report.threads.length);
  });

  it('refuses malformed input as Invalid data', async () => {
    for (const input of [{ sinceDays: 0 }, { sinceDays: 1.5 }, { version: 'v9' }, { other: true }]) {
      const result = await g.service.dispatch('coverage.get', input);
      expect(result, JSON.stringify(input)).toMatchObject({ ok: false, error: { kind: 'Invalid' } });
    }
  });

  it('is served over HTTP like every channel', async () => {
    const handle = await startServeHost({ service: g.service, rendererDir: g.dir });
    try {
      const reply = await post(handle, 'coverage.get', { sinceDays: 30 });
      expect(reply.status).toBe(200);
      const result = JSON.parse(reply.body) as { ok: boolean; value: unknown };
      expect(result.ok).toBe(true);
      expect(CoverageReportSchema.parse(result.value).sinceDays).toBe(30);
      const bad = JSON.parse((await post(handle, 'coverage.get', { sinceDays: -1 })).body) as { ok: boolean; error: { kind: string } };
      expect(bad).toMatchObject({ ok: false, error: { kind: 'Invalid' } });
    } finally {
      await handle.close();
    }
  });
});
