// The app as the keeper: while `serve` (the app's host here; Electron runs the same keeper) is open on a home, the CLI's
// index commands on that home are answered by it, over the same socket protocol as `memory-studio keep`, with the same
// answers, and nothing of a command's output in the app's log or of the app's log in a command's output.
import { spawnSync } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import { lstatSync, readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHome, type HomeManifest } from '../fixtures';
import { makeTempDir, until } from './helpers';
import { bin, keptCli, withoutTimes, type Host } from './kept-cli';

let tmp: { dir: string; cleanup: () => Promise<void> };
let manifest: HomeManifest;
let data: string;

const { run, local, start: startHost } = keptCli(() => ({ codexHome: manifest.codexHome, data }));

/** The keeper socket in the data folder, once it listens. */
function socketListening(): boolean {
  const dir = join(data, 'keeper');
  try {
    return readdirSync(dir).some((name) => name.endsWith('.sock') && lstatSync(join(dir, name)).isSocket());
  } catch {
    return false;
  }
}

async function stop(host: Host): Promise<number | null> {
  host.child.kill('SIGTERM');
  return host.exited;
}

const answered = (host: Host, command: string) =>
  (host.stderr().match(new RegExp(`^\\[keeper\\] answered ${command} `, 'gm')) ?? []).length;

beforeAll(async () => {
  tmp = await makeTempDir();
  manifest = await generateHome({ dir: join(tmp.dir, 'home'), scale: 'small', version: 'both', seed: 11, now: new Date() });
  data = join(tmp.dir, 'data');
});
afterAll(() => tmp.cleanup());

describe('the app answers the CLI for its home', () => {
  it('answers inspect, lint, budget, search and doctor as the commands do alone, and a change made just before is in the answer', async () => {
    const app = await startHost(['serve', '--port', '0'], /Open: http/);
    let idle: Socket | undefined;
    try {
      await until('the app to listen for the CLI', socketListening, 120_000);
      for (const args of [
        ['inspect', '--json'],
        ['lint', '--json'],
        ['budget', '--json'],
        ['search', 'tiles', '--json'],
        ['doctor', '--json'],
        ['lint'],
      ]) {
        const command = args[0] as string;
        const before = answered(app, command);
        const appOut = app.stdout();
        const kept = run(args);
        await until(`the app to answer ${command}`, () => answered(app, command) > before);
        const alone = local(args);
        expect(kept.status, kept.stderr).toBe(alone.status);
        expect(kept.stderr).toBe(alone.stderr); // none of the app's log lines
        if (args.includes('--json')) expect(withoutTimes(kept.stdout)).toEqual(withoutTimes(alone.stdout));
        else expect(kept.stdout).toBe(alone.stdout);
        // The answer went to the client only: nothing of it in the app's own output.
        expect(app.stdout()).toBe(appOut);
      }
      const summaries = readdirSync(join(manifest.codexHome, 'memories_v2', 'rollout_summaries')).sort();
      await appendFile(join(manifest.codexHome, 'memories_v2', 'rollout_summaries', summaries[0] as string), '\n- okapiword note\n');
      const before = answered(app, 'search');
      const hit = run(['search', 'okapiword', '--json']);
      await until('the app to answer search', () => answered(app, 'search') > before);
      expect(hit.status, hit.stderr).toBe(0);
      expect(JSON.parse(hit.stdout).hits.map((h: { relPath: string }) => h.relPath)).toEqual([`rollout_summaries/${summaries[0]}`]);
      // A second keeper of the same home is refused while the app keeps it, and says who does.
      const second = spawnSync(process.execPath, [bin, 'keep', '--codex-home', manifest.codexHome, '--data-dir', data], {
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(second.status).toBe(1);
      expect(second.stderr).toContain('This home is already kept');
      // The app's log has its own lines only: no command's progress or output, one line per answered command.
      expect(app.stderr()).not.toMatch(/Indexing|indexed \d+ files/);
      expect(
        app
          .stderr()
          .split('\n')
          .filter((line) => line !== '' && !line.startsWith('[keeper] answered ')),
      ).toEqual([]);
      // A client that connected and said nothing does not hold the app's stop.
      idle = connect(join(data, 'keeper', readdirSync(join(data, 'keeper'))[0] as string));
      await new Promise((resolve) => idle?.once('connect', resolve));
    } finally {
      expect(await stop(app)).toBe(0);
      idle?.destroy();
    }
    // Stopped: the socket is gone with it, and the CLI runs by itself.
    expect(socketListening()).toBe(false);
    expect(run(['inspect', '--json']).status).toBe(0);
  });

  it('leaves the home to a `memory-studio keep` already running, and the CLI is answered by that one', async () => {
    const keeper = await startHost(['keep', '--verbose'], /Ctrl\+C stops/);
    const app = await startHost(['serve', '--port', '0'], /Open: http/);
    try {
      await until('the app to say the home is kept', () => app.stderr().includes('This home is already kept'));
      const before = (keeper.stderr().match(/^answered inspect /gm) ?? []).length;
      expect(run(['inspect', '--json']).status).toBe(0);
      await until('the keeper to answer', () => (keeper.stderr().match(/^answered inspect /gm) ?? []).length > before);
      expect(answered(app, 'inspect')).toBe(0);
    } finally {
      expect(await stop(app)).toBe(0);
      expect(await stop(keeper)).toBe(0);
    }
  });
});
