// `npm start` runs the host through `sh -c`: a SIGTERM sent to npm's own PID (a supervisor, an IDE's stop button, `kill`)
// made npm exit while the server went on serving, orphaned. The host now notes the npm that ran it and stops with it.
// Real npm, real shell, the real server on 127.0.0.1: after npm ends, the port stops answering.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withTempDir } from './helpers';

const root = resolve(__dirname, '..', '..');
const built = existsSync(join(root, 'out', 'electron', 'host', 'cli.js')) && existsSync(join(root, 'out', 'renderer', 'index.html'));
const npm = spawnSync('npm', ['--version'], { encoding: 'utf8' }).status === 0;

/** Resolves once `url` refuses connections (the server is gone); rejects after `ms`. */
async function refused(url: string, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(2_000) });
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} still answers ${ms} ms after npm ended`);
}

describe.skipIf(!built || process.platform !== 'linux' || !npm)('npm start under a supervisor', () => {
  it('SIGTERM to npm start\u2019s own PID stops the server it started', async () => {
    await withTempDir(async (dir) => {
      const made = spawnSync(process.execPath, [join(root, 'bin', 'memory-studio'), 'demo-home', join(dir, 'home'), '--version', 'v1']);
      expect(made.status, String(made.stderr)).toBe(0);
      const child = spawn('npm', ['start', '--', '--serve', '--codex-home', join(dir, 'home'), '--data-dir', join(dir, 'data')], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, MEMORY_STUDIO_NO_ELECTRON: '1' },
        detached: true, // its own process group: a server left behind by a failure is ended with it below
      });
      try {
        await stopsWithNpm(child);
      } finally {
        try {
          process.kill(-(child.pid as number), 'SIGKILL');
        } catch {
          // the group is gone: nothing was left behind
        }
      }
    });
  }, 120_000);
});

async function stopsWithNpm(child: ChildProcess): Promise<void> {
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Open: (http\S+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
  expect((await fetch(url)).status).toBe(200);
  const npmEnded = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await npmEnded;
  await refused(url, 30_000);
  expect(output).toContain('npm, which started Memory Studio, has ended.');
}
