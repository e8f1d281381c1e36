// `memory-studio keep` as a user runs it: real processes, a real socket, real file events. The answers must be the
// CLI's own, a change made just before a command must be in its answer, and anything the keeper cannot vouch for
// runs without it.
import { spawnSync } from 'node:child_process';
import { appendFile, cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHome, type HomeManifest } from '../fixtures';
import { makeTempDir, until } from './helpers';
import { bin, keptCli, root, withoutTimes, type Host as Keeper } from './kept-cli';

let tmp: { dir: string; cleanup: () => Promise<void> };
let manifest: HomeManifest;
let data: string;

const { run, local, start } = keptCli(() => ({ codexHome: manifest.codexHome, data }));

async function startKeeper(): Promise<Keeper> {
  const keeper = await start(['keep', '--verbose'], /Ctrl\+C stops/);
  expect(keeper.stdout(), keeper.stderr()).toContain(`Keeping the index of ${manifest.codexHome} fresh`);
  return keeper;
}

const answered = (keeper: Keeper) => (keeper.stderr().match(/^answered /gm) ?? []).length;

/** Runs a command that the keeper must answer, and waits for its log line saying it did. */
async function throughKeeper(keeper: Keeper, args: string[]) {
  const before = answered(keeper);
  const result = run(args);
  await until(`the keeper to answer ${args[0]}`, () => answered(keeper) > before);
  return result;
}

beforeAll(async () => {
  tmp = await makeTempDir();
  manifest = await generateHome({ dir: join(tmp.dir, 'home'), scale: 'small', version: 'both', seed: 7, now: new Date() });
  data = join(tmp.dir, 'data');
});
afterAll(() => tmp.cleanup());

describe('memory-studio keep', () => {
  let keeper: Keeper;

  it('answers inspect, lint, budget and search exactly as the command does without it', async () => {
    keeper = await startKeeper();
    for (const args of [['inspect', '--json'], ['lint', '--json'], ['budget', '--json'], ['search', 'tiles', '--json'], ['lint']]) {
      const kept = await throughKeeper(keeper, args);
      const alone = local(args);
      expect(kept.status, kept.stderr).toBe(alone.status);
      expect(kept.stderr).toBe(alone.stderr); // no progress or notice of the keeper's earlier refreshes
      if (args.includes('--json')) expect(withoutTimes(kept.stdout)).toEqual(withoutTimes(alone.stdout));
      else expect(kept.stdout).toBe(alone.stdout);
    }
  });

  it("answers doctor's report exactly as the command does without it, and leaves --fix to the client", async () => {
    const before = answered(keeper);
    for (const args of [['doctor', '--json'], ['doctor'], ['doctor', '--version', 'v2', '--kind', 'stale,oversize']]) {
      const kept = await throughKeeper(keeper, args);
      const alone = local(args);
      expect(kept.status, kept.stderr).toBe(0);
      expect(alone.status, alone.stderr).toBe(0);
      expect(kept.stderr).toBe(alone.stderr);
      if (args.includes('--json')) expect(withoutTimes(kept.stdout)).toEqual(withoutTimes(alone.stdout));
      else expect(kept.stdout.replace(/ \(\d+\.\d s\)\n/, '\n')).toBe(alone.stdout.replace(/ \(\d+\.\d s\)\n/, '\n'));
    }
    expect(keeper.stderr().match(/^answered doctor in \d+ ms \(exit 0\)$/gm)).toHaveLength(3);
    expect(JSON.parse(local(['doctor', '--json']).stdout).findings.length).toBeGreaterThan(0);
    // A fix writes a proposal: the client runs it by itself, and the keeper answers nothing.
    const fix = run(['doctor', '--fix', 'stale-000000000000.retire']);
    expect(fix.status).toBe(local(['doctor', '--fix', 'stale-000000000000.retire']).status);
    expect(answered(keeper)).toBe(before + 3);
  });

  it("answers in the client's own folder: relative paths are the client's, and nothing lands in the keeper's streams", async () => {
    const before = answered(keeper);
    const keeperOut = keeper.stdout();
    // The client stands in the temp folder and names the home and the data folder relative to it.
    const relative = spawnSync(process.execPath, [bin, 'inspect', '--json', '--codex-home', 'home', '--data-dir', 'data'], {
      cwd: tmp.dir,
      encoding: 'utf8',
      env: { ...process.env, MEMORY_STUDIO_NO_KEEPER: '', MEMORY_STUDIO_KEEPER_ACCEPT_MS: '120000' },
      timeout: 120_000,
    });
    await until('the keeper to answer inspect', () => answered(keeper) > before);
    const alone = local(['inspect', '--json']);
    expect(relative.status, relative.stderr).toBe(0);
    expect(withoutTimes(relative.stdout)).toEqual(withoutTimes(alone.stdout));
    // The answer went to the client only: the keeper printed nothing of it on its own stdout or stderr.
    expect(keeper.stdout()).toBe(keeperOut);
    expect(keeper.stderr()).not.toContain(manifest.codexHome + '/memories');
  });

  it('has a change made just before a command in its answer, with no wait: in place, in a new folder, and a removal', async () => {
    const v2 = join(manifest.codexHome, 'memories_v2');
    const summaries = readdirSync(join(v2, 'rollout_summaries')).sort();
    const summary = join(v2, 'rollout_summaries', summaries[0] as string);
    // Appending changes the file, not its folder's mtime: only the event (or a stat of the file) can tell.
    await appendFile(summary, '\n- zebraquokka rollout note\n');
    const hit = await throughKeeper(keeper, ['search', 'zebraquokka', '--json']);
    expect(hit.status, hit.stderr).toBe(0);
    expect(JSON.parse(hit.stdout).hits.map((h: { relPath: string }) => h.relPath)).toEqual([`rollout_summaries/${summaries[0]}`]);
    const skill = join(v2, 'skills', 'platypus-skill');
    await mkdir(skill, { recursive: true });
    await writeFile(join(skill, 'SKILL.md'), '---\nname: platypus-skill\ndescription: Wombatword checks.\n---\n\nBody.\n');
    expect((await throughKeeper(keeper, ['search', 'wombatword'])).status).toBe(0);
    // A file written into the new folder after its watch was added is seen too.
    await writeFile(join(skill, 'notes.md'), 'Numbatword.\n');
    expect((await throughKeeper(keeper, ['search', 'numbatword'])).status).toBe(0);
    await rm(skill, { recursive: true });
    expect((await throughKeeper(keeper, ['search', 'wombatword'])).status).toBe(1);
    // A folder made and removed changes no indexed file: the refresh it causes prints nothing.
    await mkdir(join(manifest.codexHome, 'sessions', 'empty'));
    await rm(join(manifest.codexHome, 'sessions', 'empty'), { recursive: true });
    const kept = await throughKeeper(keeper, ['lint', '--json']);
    const alone = local(['lint', '--json']);
    expect(withoutTimes(kept.stdout)).toEqual(withoutTimes(alone.stdout));
    expect(kept.stderr).toBe(alone.stderr);
  });

  it('keeps up with a folder removed and made again at once, and with the whole home moved away and put back', async () => {
    const skills = join(manifest.codexHome, 'memories_v2', 'skills');
    // One process, back to back: the new folder may even get the old one's inode number.
    await rm(skills, { recursive: true, force: true });
    await mkdir(join(skills, 'again'), { recursive: true });
    await writeFile(join(skills, 'again', 'SKILL.md'), '---\nname: again\ndescription: Quollword.\n---\n');
    expect((await throughKeeper(keeper, ['search', 'quollword'])).status).toBe(0);
    await writeFile(join(skills, 'again', 'notes.md'), 'Bilbyword.\n');
    expect((await throughKeeper(keeper, ['search', 'bilbyword'])).status).toBe(0);
    // The home moved away and a copy put in its place (a restore from a backup): every tree is another folder now.
    const aside = join(tmp.dir, 'home-aside');
    await rename(manifest.codexHome, aside);
    // The old folders stay (aside): no event reaches their watches, and only a look at the trees can tell.
    await cp(aside, manifest.codexHome, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true });
    await writeFile(join(manifest.codexHome, 'memories_v2', 'skills', 'again', 'notes.md'), 'Dunnartword.\n');
    expect((await throughKeeper(keeper, ['search', 'dunnartword'])).status).toBe(0);
    expect((await throughKeeper(keeper, ['search', 'bilbyword'])).status).toBe(1);
    const kept = await throughKeeper(keeper, ['lint', '--json']);
    expect(withoutTimes(kept.stdout)).toEqual(withoutTimes(local(['lint', '--json']).stdout));
  });

  it('leaves a command with other settings to run by itself, and refuses a second keeper of the same home', async () => {
    const before = answered(keeper);
    const debug = run(['search', 'tiles', '--json'], { MEMORY_STUDIO_DEBUG: '1' });
    expect(debug.status, debug.stderr).toBe(0);
    expect(withoutTimes(debug.stdout)).toEqual(withoutTimes(local(['search', 'tiles', '--json']).stdout));
    const second = spawnSync(process.execPath, [bin, 'keep', '--codex-home', manifest.codexHome, '--data-dir', data], {
      cwd: root, // the printed commands start bin/memory-studio, as typed in the checkout
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain('This home is already kept');
    expect(answered(keeper)).toBe(before);
  });

  it('stops on SIGTERM and removes its socket; a killed keeper leaves a socket the CLI and the next keeper get past', async () => {
    const sockets = () => (existsSync(join(data, 'keeper')) ? readdirSync(join(data, 'keeper')) : []);
    expect(sockets()).toHaveLength(1);
    keeper.child.kill('SIGTERM');
    expect(await keeper.exited).toBe(0);
    expect(sockets()).toEqual([]);
    const killed = await startKeeper();
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect(sockets()).toHaveLength(1); // nothing removed it
    const alone = run(['search', 'tiles', '--json']);
    expect(alone.status, alone.stderr).toBe(0);
    expect(withoutTimes(alone.stdout)).toEqual(withoutTimes(local(['search', 'tiles', '--json']).stdout));
    keeper = await startKeeper();
    expect((await throughKeeper(keeper, ['search', 'tiles'])).status).toBe(0);
    keeper.child.kill('SIGTERM');
    expect(await keeper.exited).toBe(0);
  });
});
