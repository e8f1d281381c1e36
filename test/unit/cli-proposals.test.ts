// `memory-studio proposals` lists what the Review inbox lists (id, status, age, source, files, hunks decided of total,
// title), and every "not found" names it; run as a person runs it, against a real generated home.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
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
    cwd: root, // the printed commands start bin/memory-studio, as typed in the checkout
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
    expect(empty.stdout).toMatch(/^No pending proposals in .*data\.\nEvery status: bin\/memory-studio proposals --status all\n$/);

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
    expect(listed.stdout).toContain("See one's diff: bin/memory-studio show ID");

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
      expect(missing.output).toContain('`bin/memory-studio proposals`');
    }
  });
});

describe.skipIf(!built)('show prints the diff; apply says what is undecided', () => {
  it('show: the lines with - and +, plain in a pipe and coloured with FORCE_COLOR; the command that applies it', async () => {
    const id = await note('diff', 'Use pnpm, not npm, in the web repo.\n');
    const shown = run(['show', id]);
    expect(shown.status, shown.output).toBe(0);
    const lines = shown.stdout.split('\n');
    const header = lines.findIndex((l) => /^ {6}h[0-9a-f]{12} {2}@@ -0,0 \+1,1 @@ {2}undecided$/.test(l));
    expect(header, shown.stdout).toBeGreaterThan(0);
    expect(lines[header + 1]).toBe('        +Use pnpm, not npm, in the web repo.');
    // Piped: no escape codes.
    expect(shown.stdout).not.toContain('\u001b[');
    expect(shown.stdout).toContain(`1 of 1 hunks undecided. Apply: bin/memory-studio apply ${id} --accept all (or --accept HUNK_ID,...)`);
    const coloured = run(['show', id], { FORCE_COLOR: '1' });
    expect(coloured.stdout).toContain('\u001b[32m+Use pnpm, not npm, in the web repo.\u001b[0m');
    expect(run(['show', id], { FORCE_COLOR: '1', NO_COLOR: '1' }).stdout).toContain('\u001b[');
  }, 300_000);

  it('apply of undecided hunks says how many and how to decide, and writes nothing; --accept all applies', async () => {
    const id = await note('undecided', 'Staging is rebuilt every night.\n');
    const refused = run(['apply', id]);
    expect(refused.status).toBe(2);
    const said = refused.output.trim().split('\n');
    expect(said.length).toBeLessThan(6);
    expect(said[0]).toBe(`1 of 1 hunk of ${id} is undecided; nothing was written.`);
    expect(said[1]).toBe(
      `Decide them: bin/memory-studio apply ${id} --accept all, or --accept HUNK_ID,... (bin/memory-studio show ${id} lists the ids).`,
    );
    expect(refused.output).not.toContain('no files to apply');
    // Refused before anything: no decision stored (the hunk still undecided), no note on disk.
    expect(run(['show', id]).stdout).toMatch(/^ {6}h[0-9a-f]{12} {2}@@ [^@]+ @@ {2}undecided$/m);
    const notes = join(home.codexHome, 'memories', 'extensions', 'ad_hoc', 'notes');
    expect(existsSync(notes) ? readdirSync(notes).filter((f) => f.endsWith('-undecided.md')) : []).toEqual([]);
    const json = run(['apply', id, '--json']);
    expect(json.status).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      error: { kind: 'Invalid', message: expect.stringContaining('is undecided') },
    });
    expect(run(['proposals']).stdout).toMatch(new RegExp(`^${id}  pending `, 'm'));
    const applied = run(['apply', id, '--accept', 'all']);
    expect(applied.status, applied.output).toBe(0);
    expect(applied.stdout).toMatch(/wrote v1\/extensions\/ad_hoc\/notes\/.*-undecided\.md/);
  }, 300_000);

  it('a conflict is shown between markers, the disk lines then the proposed ones, with the command that resolves it', async () => {
    const target = join(home.codexHome, 'memories', 'memory_summary.md');
    const lines = (await readFile(target, 'utf8')).split('\n');
    const ours = [...lines];
    ours[2] = `${ours[2]} (ours)`;
    await writeFile(join(tmp.dir, 'ours.md'), ours.join('\n'));
    const made = run([
      'propose',
      '--file',
      'memory_summary.md',
      '--content-file',
      join(tmp.dir, 'ours.md'),
      '--codex-home',
      home.codexHome,
      '--version',
      'v1',
    ]);
    expect(made.status, made.output).toBe(0);
    const id = made.stdout.trim();
    const theirs = [...lines];
    theirs[2] = `${theirs[2]} (Codex, same line)`;
    await writeFile(target, theirs.join('\n'));
    expect(run(['rebase', id]).status).toBe(2);

    const shown = run(['show', id]).stdout;
    const conflict = /(h[0-9a-f]{12}) {2}@@ [^@]+ @@ {2}CONFLICT with the disk, UNRESOLVED/.exec(shown);
    expect(conflict, shown).not.toBeNull();
    const block = shown.slice(shown.indexOf('<<<<<<< on disk now (theirs)'), shown.indexOf('>>>>>>> proposed (ours)'));
    expect(block).toContain(`${lines[2]} (Codex, same line)`);
    expect(block.indexOf('=======')).toBeLessThan(block.indexOf(`${lines[2]} (ours)`));
    expect(block.indexOf(`${lines[2]} (Codex, same line)`)).toBeLessThan(block.indexOf('======='));
    // The command to paste is one command: no '|' a shell would take for a pipe.
    expect(shown).toContain(`1 conflict(s) unresolved; each conflict takes =theirs (the disk), =ours (the proposal) or =both`);
    const paste = shown.split('\n').find((l) => l.startsWith('  bin/memory-studio apply'));
    expect(paste).toBe(`  bin/memory-studio apply ${id} --resolve ${conflict?.[1]}=ours`);
    expect(shown).not.toMatch(/theirs\|ours/);
  }, 300_000);

  it('propose takes several files at once: one proposal, one Apply; unpaired or repeated files are refused', async () => {
    const v1 = join(home.codexHome, 'memories');
    const summaries = readdirSync(join(v1, 'rollout_summaries')).sort().slice(0, 3);
    const args: string[] = [];
    for (const [i, name] of summaries.entries()) {
      const edited = join(tmp.dir, `multi-${i}.md`);
      await writeFile(edited, `${await readFile(join(v1, 'rollout_summaries', name), 'utf8')}\n- checked by hand ${i}\n`);
      args.push('--file', `rollout_summaries/${name}`, '--content-file', edited);
    }
    const common = ['--codex-home', home.codexHome, '--version', 'v1'];
    const made = run(['propose', ...args, ...common, '--json']);
    expect(made.status, made.output).toBe(0);
    const proposal = JSON.parse(made.stdout) as { id: string; title: string; files: { relPath: string }[] };
    expect(proposal.files.map((f) => f.relPath)).toEqual(summaries.map((n) => `rollout_summaries/${n}`));
    expect(proposal.title).toBe('Edit 3 files');
    const applied = run(['apply', proposal.id, '--accept', 'all']);
    expect(applied.status, applied.output).toBe(0);
    for (const [i, name] of summaries.entries())
      expect(await readFile(join(v1, 'rollout_summaries', name), 'utf8')).toContain(`- checked by hand ${i}`);

    const unpaired = run(['propose', ...args.slice(0, 8), '--file', args[9] as string, ...common]);
    expect(unpaired.status).toBe(2);
    expect(unpaired.output).toContain('propose got 3 --file and 2 --content-file; give each --file its --content-file, in order.');
    const twice = run(['propose', ...args.slice(0, 4), ...args.slice(0, 4), ...common]);
    expect(twice.status).toBe(1);
    expect(twice.output).toContain(`rollout_summaries/${summaries[0]} is named twice`);
  }, 300_000);
});
