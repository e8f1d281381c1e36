// `memory-studio mcp` under bad input: every refusal is an isError answer in plain words, never a crash, never content
// from outside the roots, never a secret in clear; stdout carries the protocol alone; a closed stdin ends the server.
import { spawn } from 'node:child_process';
import { appendFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHome, type HomeManifest } from '../../fixtures';
import { makeTempDir } from '../helpers';
import { FAMILIES, sample } from '../lint/secret-corpus';
import { bin, built, startServer, textOf, type RunningServer } from './mcp-client';

const OUTSIDE = 'OUTSIDE-THE-ROOT-7f3a';

let temp: Awaited<ReturnType<typeof makeTempDir>>;
let manifest: HomeManifest;
let server: RunningServer;
const planted: Array<{ family: string; secret: string }> = [];
/** The part of a secret no masked preview shows: 12 characters from its middle. */
const core = (secret: string) => secret.slice(Math.floor(secret.length / 2) - 6, Math.floor(secret.length / 2) + 6);
const leaks = (text: string) => planted.filter((p) => text.includes(core(p.secret))).map((p) => p.family);

beforeAll(async () => {
  if (!built) throw new Error('out/ is missing: run "npm run build" before the unit suite, as npm test does.');
  temp = await makeTempDir();
  manifest = await generateHome({ dir: join(temp.dir, 'home'), scale: 'small', version: 'both', seed: 11, git: false });
  const v1 = join(manifest.codexHome, 'memories');
  await writeFile(join(temp.dir, 'outside.md'), `${OUTSIDE}\n`);
  await symlink(join(temp.dir, 'outside.md'), join(v1, 'escape.md'));
  await symlink(temp.dir, join(v1, 'escape-dir'));
  const lines: string[] = [];
  for (const family of FAMILIES) {
    const s = sample(family);
    planted.push({ family: family.name, secret: s.secret });
    lines.push(`- credential kept by ${family.name}:`, s.text.trimEnd(), '');
  }
  await appendFile(join(v1, 'MEMORY.md'), `\n## Credentials seen in sessions\n${lines.join('\n')}\n`);
  // A long file: a read stops at the size cap and says where to go on.
  await writeFile(join(v1, 'big-notes.md'), Array.from({ length: 4000 }, (_, i) => `line ${i + 1} ${'x'.repeat(60)}`).join('\n') + '\n');
  server = await startServer(['--codex-home', manifest.codexHome, '--data-dir', join(temp.dir, 'data')]);
}, 300_000);

afterAll(async () => {
  await server?.close();
  await temp?.cleanup();
});

/** What the raw stdio test reads of each answer. */
interface RpcLine {
  jsonrpc?: string;
  id?: number;
  result?: { protocolVersion?: string; isError?: boolean; structuredContent?: { hits?: unknown[] } };
  error?: { code?: number };
}

async function refused(name: string, args: Record<string, unknown>, message: RegExp) {
  const result = await server.call(name, args);
  expect(result.isError, `${name} ${JSON.stringify(args).slice(0, 80)} should be refused`).toBe(true);
  expect(textOf(result)).toMatch(message);
  expect(textOf(result)).not.toContain(OUTSIDE);
  expect(textOf(result)).not.toMatch(/\n\s+at /); // no stack trace
  return textOf(result);
}

describe('memory-studio mcp: bad input', () => {
  it('refuses unknown tools and missing or wrong-typed arguments with a plain message', async () => {
    await refused('memory_write', {}, /Tool memory_write not found/);
    await refused('memory_search', {}, /query/);
    await refused('memory_search', { query: 5 }, /expected string, received number/);
    await refused('memory_read', { path: 'MEMORY.md', startLine: 'one' }, /startLine/);
    await refused('memory_provenance', { path: 'MEMORY.md' }, /line/);
    await refused('memory_search', { query: 'x', extra: true }, /extra|Unrecognized/);
  });

  it('never answers from outside the roots: .., absolute paths, symlinks out, NUL', async () => {
    await refused('memory_read', { path: '../config.toml' }, /climbs out/);
    await refused('memory_read', { path: '/etc/passwd' }, /absolute|not allowed/);
    await refused('memory_read', { path: 'escape.md', version: 'v1' }, /symlink|symbolic link/i);
    await refused('memory_read', { path: 'escape-dir/outside.md', version: 'v1' }, /symlink|symbolic link/i);
    await refused('memory_read', { path: 'MEMORY.md\u0000.txt' }, /NUL/);
    await refused('memory_provenance', { path: '../../etc/passwd', line: 1 }, /climbs out/);
    await refused('memory_read', { path: 'no-such-file.md', version: 'v1' }, /does not exist|not found|No such/i);
    await expect(server.client.readResource({ uri: 'codex-memory://v1/escape.md' })).rejects.toThrow(/symlink|symbolic link/i);
    await expect(server.client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow();
  });

  it('refuses a huge limit, range or query, and caps a long read with where to go on', async () => {
    await refused('memory_search', { query: 'deploy', limit: 100_000 }, /limit/);
    await refused('memory_search', { query: 'x'.repeat(1024 * 1024) }, /query/);
    await refused('memory_read', { path: 'MEMORY.md', startLine: 1, endLine: 1e12 }, /endLine/);
    await refused('memory_read', { path: 'MEMORY.md', version: 'v1', startLine: 10, endLine: 5 }, /before startLine/);
    await refused('memory_read', { path: 'MEMORY.md', version: 'v1', startLine: 90_000 }, /has \d+ lines/);
    await refused('memory_provenance', { path: 'MEMORY.md', version: 'v1', line: 90_000 }, /has \d+ lines/);
    const first = await server.call('memory_read', { path: 'big-notes.md', version: 'v1', endLine: 50_000_000 });
    const out = first.structuredContent as { truncated: boolean; nextStartLine: number; endLine: number; totalLines: number; text: string };
    expect(out).toMatchObject({ truncated: true, totalLines: 4000 });
    expect(out.text.length).toBeLessThanOrEqual(64 * 1024);
    expect(out.nextStartLine).toBe(out.endLine + 1);
    const next = await server.call('memory_read', {
      path: 'big-notes.md',
      version: 'v1',
      startLine: out.nextStartLine,
      endLine: out.nextStartLine,
    });
    expect((next.structuredContent as { text: string }).text).toBe(`line ${out.nextStartLine} ${'x'.repeat(60)}\n`);
  });

  it('masks every secret in every answer and in its log, and never says one back from the input', async () => {
    const answers: string[] = [];
    const keep = (value: unknown) => answers.push(JSON.stringify(value));
    keep(await server.call('memory_read', { path: 'MEMORY.md', version: 'v1' }));
    keep(await server.client.readResource({ uri: 'codex-memory://v1/MEMORY.md' }));
    keep(await server.call('memory_search', { query: 'credential kept', limit: 50 }));
    keep(await server.call('memory_search', { query: 'OPENAI_API_KEY' }));
    keep(await server.call('memory_overview', {}));
    const whole = (await server.call('memory_read', { path: 'MEMORY.md', version: 'v1' })).structuredContent as { totalLines: number };
    keep(await server.call('memory_provenance', { path: 'MEMORY.md', version: 'v1', line: whole.totalLines - 2 }));
    // A secret sent in a call comes back masked in the refusal that quotes it.
    const secret = planted[0]?.secret ?? '';
    keep(await server.call('memory_read', { path: `notes/${secret}.md`, version: 'v1' }));
    keep(await server.call(`tool_${secret}`, {}));
    const all = answers.join('\n');
    expect(all).toContain('credential kept by'); // the text around the secrets did come back
    expect(leaks(all)).toEqual([]);
    expect(leaks(server.stderr())).toEqual([]);
  });

  it('answers plainly for a home without memory and for corrupt or locked databases', async () => {
    const empty = join(temp.dir, 'empty-home');
    await mkdir(empty, { recursive: true });
    const bare = await startServer(['--codex-home', empty, '--data-dir', join(temp.dir, 'data-empty')]);
    try {
      await expect(bare.call('memory_read', { path: 'MEMORY.md' })).resolves.toMatchObject({ isError: true });
      expect(textOf(await bare.call('memory_read', { path: 'MEMORY.md' }))).toMatch(/has no memory folder/);
      expect((await bare.call('memory_search', { query: 'deploy' })).structuredContent).toMatchObject({ hits: [] });
      const overview = await bare.call('memory_overview', {});
      expect(overview.isError).toBeFalsy();
      expect(textOf(overview)).toMatch(/no memory folder/);
    } finally {
      await bare.close();
    }
    // Codex's state DB corrupt, a memory DB locked by a writer, the Studio DB corrupt.
    await writeFile(join(manifest.codexHome, 'state_5.sqlite'), 'this is not a database'.repeat(100));
    const locker = new Database(join(manifest.codexHome, 'memories_1.sqlite'));
    locker.exec('BEGIN EXCLUSIVE');
    const dataDir = join(temp.dir, 'data-corrupt');
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, 'studio.sqlite'), 'garbage, not SQLite'.repeat(200));
    const damaged = await startServer(['--codex-home', manifest.codexHome, '--data-dir', dataDir]);
    try {
      const overview = await damaged.call('memory_overview', {});
      expect(overview.isError).toBeFalsy();
      expect(textOf(overview)).toMatch(/state_5\.sqlite/);
      const proposed = await damaged.call('memory_propose', { text: 'Remember the blue-green switch.' });
      expect(proposed.isError).toBe(true);
      expect(textOf(proposed)).toMatch(/studio\.sqlite/);
      // Still serving after all of it.
      expect((await damaged.call('memory_read', { path: 'memory_summary.md', version: 'v1', endLine: 1 })).isError).toBeFalsy();
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
      await damaged.close();
    }
  });
});

describe('memory-studio mcp: stdio', () => {
  it('writes nothing but JSON-RPC to stdout, and exits 0 when the client closes stdin', async () => {
    const child = spawn(process.execPath, [bin, 'mcp', '--codex-home', manifest.codexHome, '--data-dir', join(temp.dir, 'data-raw')], {
      env: { ...process.env, MEMORY_STUDIO_NO_KEEPER: '1' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // A failure says what the server printed: this has failed once on a busy machine, and the reason was not kept.
    const said = () => `stdout:\n${stdout.slice(0, 4000)}\nstderr:\n${stderr.slice(-4000)}`;
    const exited = new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not exit within 60 s of stdin closing:\n${said()}`)), 60_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'memory_overview', arguments: {} } });
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'memory_search', arguments: { query: 'deploy' } } });
    send({ jsonrpc: '2.0', id: 4, method: 'no/such/method' });
    // Closed right away: what was asked before the close is still answered, then the server ends.
    child.stdin.end();
    expect(await exited, said()).toBe(0);
    const lines = stdout.split('\n').filter((l) => l !== '');
    expect(lines.length, said()).toBe(4);
    const parsed = lines.map((line) => {
      try {
        return JSON.parse(line) as RpcLine;
      } catch {
        throw new Error(`stdout holds a line that is not JSON: ${line.slice(0, 200)}\n${said()}`);
      }
    });
    for (const message of parsed) expect(message, said()).toMatchObject({ jsonrpc: '2.0' });
    const byId = new Map(parsed.map((message) => [message.id, message]));
    expect(byId.get(1)?.result?.protocolVersion, said()).toBe('2025-11-25');
    expect(byId.get(2)?.result?.isError, said()).toBeFalsy();
    expect(byId.get(3)?.result?.structuredContent?.hits?.length ?? 0, said()).toBeGreaterThan(0);
    expect(byId.get(4)?.error?.code, said()).toBe(-32601);
  });
});
