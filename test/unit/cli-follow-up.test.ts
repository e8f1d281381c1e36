// The commands the CLI prints as next steps are pasted into a shell, as a person pastes them, and they work: each carries
// the run's --codex-home and --data-dir (quoted: the folders here have spaces and a quote in their names) and the way
// the README runs the CLI. The environment points elsewhere, so a follow-up without its flags would miss both folders.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from './helpers';

const root = resolve(__dirname, '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');
const built = existsSync(join(root, 'out', 'electron', 'host', 'cli.js'));
// The README's way: the checkout's bin/memory-studio, as typed in the checkout (these runs start there).
const PREFIX = 'bin/memory-studio';

let tmp: { dir: string; cleanup: () => Promise<void> };
let home: string;
let data: string;
beforeAll(async () => {
  tmp = await makeTempDir();
  home = join(tmp.dir, 'my codex home');
  data = join(tmp.dir, "Ann's data");
}, 60_000);
afterAll(() => tmp.cleanup());

// Neither the person's Codex home nor their data folder: only the flags a follow-up carries can find the run's.
const env = () => ({ ...process.env, CODEX_HOME: join(tmp.dir, 'no-home'), MEMORY_STUDIO_DATA: join(tmp.dir, 'no-data') });

function run(args: string[], cwd = root, extra: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...env(), ...extra }, cwd });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, output: `${r.stdout}${r.stderr}` };
}

/** A printed command pasted as is into sh, in the folder it was printed in: bin/memory-studio runs as a program. */
function paste(line: string, cwd = root) {
  expect(line.startsWith(`${PREFIX} `) || cwd !== root, line).toBe(true);
  const r = spawnSync('sh', ['-c', line], { encoding: 'utf8', timeout: 120_000, env: env(), cwd });
  return { status: r.status, stdout: r.stdout, output: `${r.stdout}${r.stderr}` };
}

/** The command of a printed line: from the prefix to the end, or to the parenthesised note after three spaces. */
function commandIn(output: string, marker: string): string {
  const line = output.split('\n').find((l) => l.includes(marker) && l.includes(PREFIX));
  expect(line, `${marker} in:\n${output}`).toBeDefined();
  const from = (line ?? '').slice((line ?? '').indexOf(PREFIX));
  return (from.split('   (')[0] ?? from).trim();
}

describe.skipIf(!built)('follow-ups to paste', () => {
  it('the README documents the way the follow-ups run the CLI', async () => {
    expect(await readFile(join(root, 'README.md'), 'utf8')).toContain(`\`${PREFIX} <command>\``);
  });

  it('demo-home takes --data-dir, writes no progress into a pipe, and its follow-up runs on the new home', () => {
    const made = run(['demo-home', home, '--version', 'v1', '--data-dir', data]);
    expect(made.status, made.output).toBe(0);
    expect(made.stderr).not.toContain('\r');
    expect(commandIn(made.stdout, 'Open it:')).toBe(`${PREFIX} start --codex-home '${home}' --data-dir '${tmp.dir}/Ann'\\''s data'`);
    const inspect = paste(commandIn(made.stdout, 'Or look at it here:'));
    expect(inspect.status, inspect.output).toBe(0);
    expect(inspect.stdout).toContain(home);
  });

  it('doctor -> doctor --fix -> show -> apply, each pasted from what the one before printed', () => {
    const report = run(['doctor', '--codex-home', home, '--data-dir', data, '--version', 'v1']);
    expect(report.status, report.output).toBe(0);
    const fix = paste(commandIn(report.stdout, 'fix:'));
    expect(fix.status, fix.output).toBe(0);
    const id = fix.stdout.split('\n')[0];
    expect(id).toMatch(/^p-/);
    const shown = paste(commandIn(fix.stdout, ` show ${id}`));
    expect(shown.status, shown.output).toBe(0);
    expect(shown.stdout).toContain(id);
    const applied = paste(commandIn(fix.stdout, ` apply ${id}`));
    expect(applied.status, applied.output).toBe(0);
    expect(applied.stdout).toContain(`Applied ${id}`);
    const listed = run(['proposals', '--status', 'applied', '--data-dir', data]);
    expect(listed.stdout).toContain(id);
    const next = paste(commandIn(listed.stdout, "See one's diff:").replace(' ID ', ` ${id} `));
    expect(next.status, next.output).toBe(0);
  });

  it('from another folder the prefix is the whole path of bin/memory-studio, quoted, and pasting it there works', () => {
    const elsewhere = join(tmp.dir, 'some where');
    mkdirSync(elsewhere, { recursive: true });
    const made = run(['demo-home', join(tmp.dir, 'second home'), '--version', 'v1'], elsewhere);
    expect(made.status, made.output).toBe(0);
    const line = made.stdout.split('\n').find((l) => l.startsWith('Or look at it here: ')) ?? '';
    const command = line.slice('Or look at it here: '.length);
    const whole = join(root, 'bin', 'memory-studio');
    const quoted = /^[\w@%+=:,./-]+$/.test(whole) ? whole : `'${whole.replace(/'/g, `'\\''`)}'`;
    expect(command.startsWith(`${quoted} inspect `), command).toBe(true);
    const inspect = paste(command, elsewhere);
    expect(inspect.status, inspect.output).toBe(0);
  });

  it('through a link outside the checkout: npx --offline memory-studio under npx, else memory-studio (npm link)', () => {
    // npx runs the command from its cache and `npm link` from the global bin folder: both through a link named so.
    const linkDir = join(tmp.dir, 'npx cache', 'node_modules', '.bin');
    mkdirSync(linkDir, { recursive: true });
    const link = join(linkDir, 'memory-studio');
    symlinkSync(join(root, 'bin', 'memory-studio'), link);
    const through = (extra: NodeJS.ProcessEnv) =>
      spawnSync(link, ['demo-home', join(tmp.dir, `home ${Object.keys(extra).length}`), '--version', 'v1'], {
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...env(), npm_command: '', ...extra },
      });
    expect(through({ npm_command: 'exec' }).stdout).toContain('Or look at it here: npx --offline memory-studio inspect');
    expect(through({}).stdout).toMatch(/Or look at it here: memory-studio inspect/);
    // Under npx the core's hint says npx too, once.
    const underNpx = spawnSync(link, ['doctor', '--fix', 'dup-000000000000.merge', '--codex-home', home, '--data-dir', data], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...env(), npm_command: 'exec' },
    });
    expect(underNpx.stderr).toContain('(npx --offline memory-studio doctor)');
    expect(underNpx.stderr).not.toContain('npx --offline npx');
  });

  it('a hint written in core carries the prefix too', () => {
    const stale = run(['doctor', '--fix', 'dup-000000000000.merge', '--codex-home', home, '--data-dir', data]);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain(`(${PREFIX} doctor)`);
  });

  it('through a checkout reached by a linked folder: the path as typed, ./memory-studio from bin/', () => {
    const linked = join(tmp.dir, 'linked checkout');
    symlinkSync(root, linked);
    const program = join(linked, 'bin', 'memory-studio');
    const made = spawnSync(program, ['demo-home', join(tmp.dir, 'linked home'), '--version', 'v1'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: env(),
      cwd: linked,
    });
    expect(made.status, made.stderr).toBe(0);
    const command = commandIn(made.stdout, 'Or look at it here:');
    expect(command.startsWith(`${PREFIX} inspect `), command).toBe(true);
    expect(paste(command, linked).status).toBe(0);
    const fromBin = spawnSync(program, ['demo-home', join(tmp.dir, 'bin home'), '--version', 'v1'], {
      encoding: 'utf8',
      timeout: 120_000,
      env: env(),
      cwd: join(linked, 'bin'),
    });
    const line = fromBin.stdout.split('\n').find((l) => l.startsWith('Or look at it here: ')) ?? '';
    expect(line).toContain('Or look at it here: ./memory-studio inspect ');
    expect(paste(line.slice('Or look at it here: '.length), join(linked, 'bin')).status).toBe(0);
  });
});
