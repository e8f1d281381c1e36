// `memory-studio proposals` lists what the Review inbox lists (id, status, age, source, files, hunks decided of total,
// title), and every "not found" names it; run as a person runs it, against a real generated home.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHome, type HomeManifest } from '../fixtures';
import { makeTempDir } from './helpers';

const root = resolve(__dirname, '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');
const built = existsSync(join(root, 'out', 'electron', 'host', 'cli.js'));

let tmp: { dir: string; cleanup: () => Promise<void> };
let home: HomeManifest;
beforeAll(async () => {
  tmp = await makeTempDir();
  home = await generateHome({ dir: join(tmp.dir, 'home'), scale: 'small', version: 'v1', seed: 5, git: false });
}, 300_000);
afterAll(() => tmp.cleanup());

function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    // The proposals live in this data folder; no CODEX_HOME of the person running the suite.
    env: { ...process.env, CODEX_HOME: join(tmp.dir, 'no-home'), MEMORY_STUDIO_DATA: join(tmp.dir, 'data'), ...env },
  });
  return { status: result.status, stdout: result.stdout, output: `${result.stdout}${result.stderr}` };
}

async function note(slug: string, text: string): Promise<string> {
  const file = join(tmp.dir, `${slug}.txt`);
  await writeFile(file, text);
  const made = run(['note', '--slug', slug, '--text-file', file, '--codex-home', home.codexHome, '--version', 'v1']);
  expect(made.status, made.output).toBe(0);
  return made.stdout.trim();
}

describe.skipIf(!built)('memory-studio proposals', () => {
  it('lists the pending proposals with files and hunks decided of total; --status and --json', async () => {
    const empty = run(['proposals']);
    expect(empty.status, empty.output).toBe(0);
    expect(empty.stdout).toMatch(/^No pending proposals in .*data\.\nEvery status: memory-studio proposals --status all\n$/);

    const first = await note('gate', 'Deploys go through the staging gate first.\n');
    const second = await note('flaky', 'The payments suite is flaky on Mondays.\nRetry it once.\n');
    const listed = run(['proposals']);
    expect(listed.status, listed.output).toBe(0);
    const rows = listed.stdout.split('\n');
    expect(rows[0]).toBe('2 pending proposals, newest first:');
    // Newest first: each row, then its files.
    expect(rows[1]).toMatch(
      new RegExp(`^${second}  pending  (just now|\\d+ min ago)  note  1 file  0/1 hunks decided  "Ad-hoc note: flaky"$`),
    );
    expect(rows[2]).toMatch(/^ {4}v1\/extensions\/ad_hoc\/notes\/.*-flaky\.md$/);
    expect(rows[3]).toContain(first);
    expect(listed.stdout).toContain("See one's diff: memory-studio show ID");

    const applied = run(['apply', first, '--accept', 'all']);
    expect(applied.status, applied.output).toBe(0);
    expect(run(['proposals']).stdout).not.toContain(first);
    const done = run(['proposals', '--status', 'applied']);
    expect(done.stdout).toMatch(new RegExp(`^${first}  applied  .*  1/1 hunks decided  "Ad-hoc note: gate"$`, 'm'));

    const json = JSON.parse(run(['proposals', '--status', 'all', '--json']).stdout);
    expect(json.proposals.map((p: { id: string }) => p.id)).toEqual([second, first]);
    expect(json.proposals[0]).toMatchObject({
      id: second,
      status: 'pending',
      source: 'note',
      fileCount: 1,
      hunks: { decided: 0, total: 1 },
      files: [{ version: 'v1', target: 'memory', relPath: expect.stringMatching(/-flaky\.md$/) }],
    });
  }, 300_000);

  it('a bad --status names the statuses; an unknown proposal names `memory-studio proposals`', () => {
    const bad = run(['proposals', '--status', 'open']);
    expect(bad.status).toBe(2);
    expect(bad.output).toContain('--status must be pending, applied, rejected, superseded or all, not "open"');
    for (const command of ['show', 'apply', 'rebase']) {
      const missing = run([command, 'p-0123456789']);
      expect(missing.status, missing.output).toBe(1);
      expect(missing.output).toContain('There is no proposal p-0123456789.');
      expect(missing.output).toContain('`memory-studio proposals`');
    }
  });
});
