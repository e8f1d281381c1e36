// Only regular files are read: a FIFO or socket in a memory folder is refused at once, never a hang; the CLI's
// --json commands answer `{ ok: false }` on bad input. Real FIFOs (mkfifo), a real socket, real processes.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { truncate, unlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANALYSIS_CAP_BYTES, readMemoryFile } from '../../electron/core/codex/workspace';
import { startServeHost } from '../../electron/host/serve';
import { openGeneratedHome, withTempDir, type GeneratedHomeService } from './helpers';

const root = resolve(__dirname, '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');
const built = existsSync(join(root, 'out', 'electron', 'host', 'cli.js'));
const NOW = new Date('2026-03-04T12:00:00Z');

let home: GeneratedHomeService;
let socket: Server;

beforeAll(async () => {
  home = await openGeneratedHome({ scale: 'small', version: 'v1', seed: 5, now: NOW, git: false });
  execFileSync('mkfifo', [join(home.root, 'pipe.md')]);
  socket = createServer();
  await new Promise<void>((done) => socket.listen(join(home.root, 'socket.md'), done));
});

afterAll(async () => {
  await new Promise<void>((done) => socket.close(() => done()));
  await home.dispose();
});

describe('reading a memory folder', () => {
  it('refuses a FIFO and a socket with a message, and twelve FIFO reads at once leave the thread pool free', async () => {
    await expect(readMemoryFile(home.root, 'v1', 'pipe.md')).rejects.toMatchObject({
      kind: 'Invalid',
      message: expect.stringMatching(/pipe\.md is a named pipe \(FIFO\), not a regular file/),
    });
    await expect(readMemoryFile(home.root, 'v1', 'socket.md')).rejects.toMatchObject({
      kind: 'Invalid',
      message: expect.stringMatching(/socket\.md is a socket/),
    });
    // libuv has four pool threads: a blocking open of each FIFO would have taken them all for ever.
    const settled = await Promise.allSettled(Array.from({ length: 12 }, () => readMemoryFile(home.root, 'v1', 'pipe.md')));
    expect(settled.map((s) => s.status)).toEqual(Array(12).fill('rejected'));
    const summary = await readMemoryFile(home.root, 'v1', 'memory_summary.md');
    expect(summary.content.startsWith('v1')).toBe(true);
  });

  it('over HTTP: FIFO reads are refused and the serve host keeps answering', async () => {
    const handle = await startServeHost({ service: home.service, rendererDir: join(root, 'out', 'renderer') });
    try {
      const call = (channel: string, input: unknown) =>
        fetch(`http://127.0.0.1:${handle.port}/api/${channel}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${handle.token}`, 'content-type': 'application/json' },
          body: JSON.stringify(input),
        }).then((r) => r.json() as Promise<{ ok: boolean; error?: { message: string } }>);
      const answers = await Promise.all(Array.from({ length: 8 }, () => call('workspace.read', { version: 'v1', path: 'pipe.md' })));
      expect(answers.every((a) => !a.ok && /named pipe/.test(a.error?.message ?? ''))).toBe(true);
      const list = (await call('workspace.list', { version: 'v1' })) as {
        ok: boolean;
        value?: { files: Array<{ path: string }>; diagnostics: Array<{ rule: string; path?: string }> };
      };
      expect(list.ok).toBe(true);
      expect(list.value?.files.some((f) => f.path === 'pipe.md')).toBe(false);
      expect(
        list.value?.diagnostics
          .filter((d) => d.rule === 'workspace/special-file')
          .map((d) => d.path)
          .sort(),
      ).toEqual(['pipe.md', 'socket.md']);
      const lint = await call('inspect.lint', { version: 'v1' });
      expect(lint.ok).toBe(true);
    } finally {
      await handle.close();
    }
  });
});

describe.skipIf(!built)('CLI --json on bad input: JSON with ok false, exit 1, no stack trace', () => {
  const cli = (args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
  const expectFailure = (args: string[], message: RegExp) => {
    const result = cli([...args, '--json']);
    expect(result.status, result.stderr).toBe(1);
    const answer = JSON.parse(result.stdout) as { ok: boolean; error: { kind: string; message: string } };
    expect(answer.ok).toBe(false);
    expect(answer.error.message).toMatch(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  };

  it('parse: a FIFO, a missing file, a binary file, invalid UTF-8, past the 64 MiB processing cap', async () => {
    await withTempDir(async (dir) => {
      execFileSync('mkfifo', [join(dir, 'fifo.md')]);
      expectFailure(['parse', join(dir, 'fifo.md')], /named pipe \(FIFO\)/);
      expectFailure(['parse', join(dir, 'missing.md')], /cannot be read/);
      await writeFile(join(dir, 'binary.md'), Buffer.from([0x76, 0x31, 0x00, 0x0a]));
      expectFailure(['parse', join(dir, 'binary.md')], /looks binary/);
      await writeFile(join(dir, 'latin1.md'), Buffer.from('v1\ncaf\xe9\n', 'latin1'));
      expectFailure(['parse', join(dir, 'latin1.md')], /not valid UTF-8 \(first bad byte at offset 6, line 2\)/);
      await writeFile(join(dir, 'huge.md'), '');
      await truncate(join(dir, 'huge.md'), ANALYSIS_CAP_BYTES + 1);
      expectFailure(['parse', join(dir, 'huge.md')], new RegExp(`more than the ${ANALYSIS_CAP_BYTES} bytes`));
    });
  });

  // Past the editor's 16 MiB they read it as Codex does (test/unit/budget/big-summary.test.ts); past 64 MiB they refuse.
  it('budget and inspect: an invalid-UTF-8, binary, FIFO or oversized memory_summary.md', async () => {
    const summary = join(home.root, 'memory_summary.md');
    const homeArgs = ['--codex-home', home.manifest.codexHome, '--data-dir', join(home.dir, 'cli-data')];
    const cases: Array<[() => Promise<void>, RegExp]> = [
      [() => writeFile(summary, Buffer.from('v1\n\xff\xfe\n', 'latin1')), /not valid UTF-8/],
      [() => writeFile(summary, Buffer.from([0x76, 0x31, 0x0a, 0x00])), /looks binary/],
      [
        async () => {
          await unlink(summary);
          execFileSync('mkfifo', [summary]);
        },
        /named pipe/,
      ],
      [
        async () => {
          await unlink(summary);
          await writeFile(summary, '');
          await truncate(summary, ANALYSIS_CAP_BYTES + 1);
        },
        /more than the 64\.0 MiB/,
      ],
    ];
    for (const [make, message] of cases) {
      await make();
      expectFailure(['budget', ...homeArgs, '--version', 'v1'], message);
      expectFailure(['inspect', ...homeArgs, '--version', 'v1'], message);
    }
  });
});
