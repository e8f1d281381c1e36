// The small ones of issue 28, run as a person runs them: a named home that is not there stops start/serve with a line;
// npm taking `--codex-home` for itself is said; a 401 names what started the server; lint and inspect agree on the
// Markdown files of a root.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from './helpers';

const root = resolve(__dirname, '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');
const built = existsSync(join(root, 'out', 'electron', 'host', 'cli.js'));

let tmp: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.cleanup());

const env = (extra: NodeJS.ProcessEnv = {}) => ({
  ...process.env,
  CODEX_HOME: join(tmp.dir, 'default-home'),
  MEMORY_STUDIO_DATA: join(tmp.dir, 'data'),
  MEMORY_STUDIO_NO_ELECTRON: '1',
  ...extra,
});

function run(args: string[], extra: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000, env: env(extra) });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, output: `${r.stdout}${r.stderr}` };
}

describe.skipIf(!built)('the small ones', () => {
  it('start and serve on a --codex-home that does not exist say so and serve nothing', () => {
    const missing = join(tmp.dir, 'no-such-home');
    for (const command of ['start', 'serve']) {
      const r = run([command, '--codex-home', missing]);
      expect(r.status, r.output).toBe(1);
      expect(r.stderr).toContain(`${missing} does not exist.`);
      expect(r.stderr).toContain('Pass --codex-home');
      expect(r.stdout).not.toContain('Open:');
    }
  });

  it('npm start --codex-home DIR: npm took the option, and the message says how to pass it', () => {
    const r = run(['start', '/no/such'], { npm_config_codex_home: 'true', npm_lifecycle_event: 'start' });
    expect(r.status, r.output).toBe(2);
    expect(r.stderr).toContain('npm took --codex-home for itself');
    expect(r.stderr).toContain('npm start -- --codex-home /no/such');
  });

  it('a 401 names npm start when npm start started the server', async () => {
    const demo = run(['demo-home', join(tmp.dir, 'home'), '--version', 'v1']);
    expect(demo.status, demo.output).toBe(0);
    const child = spawn(process.execPath, [bin, 'serve', '--codex-home', join(tmp.dir, 'home'), '--port', '0'], {
      env: env({ npm_lifecycle_event: 'start' }),
    });
    try {
      const url = await new Promise<string>((resolveUrl, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /Open: (http:\/\/127\.0\.0\.1:\d+)\//.exec(out);
          if (match?.[1]) resolveUrl(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      const response = await fetch(`${url}/api/home.get`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(response.status).toBe(401);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toContain('Open the URL that npm start printed');
    } finally {
      child.kill('SIGTERM');
    }
  }, 120_000);

  it('lint and inspect count the same Markdown files of a root', () => {
    const home = join(tmp.dir, 'home');
    const lint = run(['lint', '--codex-home', home, '--version', 'v1']);
    const inspect = run(['inspect', '--codex-home', home, '--version', 'v1']);
    const linted = /in (\d+) Markdown files/.exec(lint.stdout)?.[1];
    const listed = /: (\d+) files \((\d+) Markdown, which lint reads\)/.exec(inspect.stdout);
    expect(linted, lint.output).toBeDefined();
    expect(listed, inspect.output).not.toBeNull();
    expect(listed?.[2]).toBe(linted);
    expect(Number(listed?.[1])).toBeGreaterThanOrEqual(Number(linted));
  });
});
