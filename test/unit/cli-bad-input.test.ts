// Every CLI command with the bad input a newcomer gives it (a home that does not exist, an unknown id, a missing
// file, a folder that already holds Codex memory): a short message naming what is wrong, a non-zero exit, never a stack trace.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from './helpers';

const root = resolve(__dirname, '..', '..');
const bin = join(root, 'electron', 'host', 'bin.cjs');
const built = existsSync(join(root, 'out', 'electron', 'host', 'cli.js'));

let tmp: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  tmp = await makeTempDir();
  await mkdir(join(tmp.dir, 'busy'), { recursive: true });
  await writeFile(join(tmp.dir, 'busy', 'keep.txt'), 'not a Codex home\n');
  // A folder that already holds Codex memory: demo-home must refuse it.
  await mkdir(join(tmp.dir, 'used', 'memories'), { recursive: true });
});
afterAll(() => tmp.cleanup());

function run(args: string[]) {
  const result = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    timeout: 120_000,
    // No CODEX_HOME or debug switch from the person running the suite.
    env: { ...process.env, CODEX_HOME: join(tmp.dir, 'no-such-home'), MEMORY_STUDIO_DEBUG: '' },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe.skipIf(!built)('bad input on every command', () => {
  const gone = () => join(tmp.dir, 'gone');
  const data = () => ['--data-dir', join(tmp.dir, 'data')];
  const cases: Array<[string, () => string[], RegExp]> = [
    ['inspect, missing home', () => ['inspect', '--codex-home', gone(), ...data()], /gone does not exist\./],
    ['lint, missing home', () => ['lint', '--codex-home', gone(), ...data()], /gone does not exist\./],
    ['lint --json, missing home', () => ['lint', '--codex-home', gone(), ...data(), '--json'], /"ok": ?false/],
    ['budget, missing home', () => ['budget', '--codex-home', gone(), ...data()], /gone does not exist\./],
    ['secrets, missing home', () => ['secrets', '--codex-home', gone(), ...data()], /gone does not exist\./],
    ['coverage, missing home', () => ['coverage', '--codex-home', gone(), ...data()], /gone does not exist\./],
    ['coverage --json, missing home', () => ['coverage', '--codex-home', gone(), '--json'], /"ok": ?false/],
    ['search, missing home', () => ['search', 'flaky', '--codex-home', gone(), ...data()], /gone does not exist\./],
    ['inspect, a home without memory', () => ['inspect', '--codex-home', join(tmp.dir, 'busy'), ...data()], /has no memory folder/],
    ['parse, missing file', () => ['parse', join(tmp.dir, 'missing.md')], /missing\.md cannot be read/],
    ['show, unknown proposal', () => ['show', 'p-does-not-exist', ...data()], /p-does-not-exist/],
    ['apply, unknown proposal', () => ['apply', 'p-does-not-exist', ...data()], /p-does-not-exist/],
    ['rebase, unknown proposal', () => ['rebase', 'p-does-not-exist', ...data()], /p-does-not-exist/],
    [
      'revert, a malformed entry id',
      () => ['revert', 'h-does-not-exist', '--codex-home', join(tmp.dir, 'busy'), ...data()],
      /not a history entry id/,
    ],
    ['history, missing home', () => ['history', '--codex-home', gone(), ...data()], /gone does not exist\./],
    [
      'forget, missing home',
      () => ['forget', '019a0000-0000-7000-8000-000000000000', '--codex-home', gone(), ...data()],
      /gone does not exist\./,
    ],
    [
      'note, missing text file',
      () => ['note', '--slug', 'x', '--text-file', join(tmp.dir, 'none.txt'), '--codex-home', gone(), ...data()],
      /none\.txt/,
    ],
    [
      'propose, missing content file',
      () => ['propose', '--file', 'MEMORY.md', '--content-file', join(tmp.dir, 'none.md'), '--codex-home', gone(), ...data()],
      /none\.md/,
    ],
    ['consolidate, missing home', () => ['consolidate', '--codex-home', gone(), ...data(), '--preview'], /gone/],
    [
      'import, missing Codex home',
      () => ['import', '--from', 'claude', '--codex-home', gone(), ...data(), '--plan'],
      /gone does not exist\./,
    ],
    [
      'import, missing source home',
      () => ['import', '--from', 'claude', '--source-home', gone(), '--codex-home', join(tmp.dir, 'busy'), ...data(), '--plan'],
      /gone does not exist\./,
    ],
    ['doctor, missing home', () => ['doctor', '--codex-home', gone(), ...data()], /gone does not exist\./],
    [
      'doctor --fix, missing home',
      () => ['doctor', '--fix', 'dup-000000000000.merge', '--codex-home', gone(), ...data()],
      /gone does not exist\./,
    ],
    ['promote, missing home', () => ['promote', 'm-000000000000', '--codex-home', gone(), ...data()], /gone does not exist\./],
    ['promote, not an entry id', () => ['promote', 'MEMORY.md', '--codex-home', gone(), ...data()], /is not an entry id/],
    [
      'demo-home into a folder that holds Codex memory',
      () => ['demo-home', join(tmp.dir, 'used')],
      /Refusing to generate a demo home .*used.*nothing was written/,
    ],
    ['serve, a bad port', () => ['serve', '--port', 'eighty'], /--port must be/],
  ];

  for (const [what, args, says] of cases) {
    it(what, () => {
      const { status, output } = run(args());
      expect(status, output).not.toBe(0);
      expect(output, 'a stack trace').not.toMatch(/\n\s+at .+[(:]\d+/);
      expect(output).not.toMatch(/Unexpected error/);
      expect(output).toMatch(says);
    });
  }

  it('a failure says it in a line or two, not with the usage text', () => {
    const { output } = run(['lint', '--codex-home', gone(), ...data()]);
    expect(output.trim().split('\n').length).toBeLessThanOrEqual(2);
    expect(output).not.toMatch(/Usage:/);
  });
});

describe.skipIf(!built)('apply, show and rebase find the home from the proposal', () => {
  it('apply without --codex-home writes into the proposal’s home; a --codex-home naming another home is refused', async () => {
    const { generateHome } = await import('../fixtures');
    const manifest = await generateHome({ dir: join(tmp.dir, 'own-home'), scale: 'small', version: 'v1', seed: 3, git: false });
    const data = ['--data-dir', join(tmp.dir, 'data-own')];
    const content = join(tmp.dir, 'note.txt');
    await writeFile(content, 'Deploys go through the staging gate first.\n');
    const propose = () => {
      const made = run([
        'note',
        '--slug',
        `gate-${Math.random().toString(36).slice(2, 8)}`,
        '--text-file',
        content,
        '--codex-home',
        manifest.codexHome,
        '--version',
        'v1',
        ...data,
      ]);
      expect(made.status, made.output).toBe(0);
      return made.output.trim().split('\n')[0] as string;
    };
    const first = propose();
    // CODEX_HOME (set by run) names a folder that does not exist: the proposal's own home is used.
    expect(run(['show', first, ...data]).output).toContain(first);
    const applied = run(['apply', first, '--accept', 'all', ...data]);
    expect(applied.status, applied.output).toBe(0);
    expect(applied.output).toMatch(/wrote v1\/extensions\/ad_hoc\/notes\//);
    const second = propose();
    const refused = run(['apply', second, '--accept', 'all', '--codex-home', join(tmp.dir, 'busy'), ...data]);
    expect(refused.status).toBe(1);
    expect(refused.output).toMatch(
      new RegExp(`was made for the Codex home ${manifest.codexHome.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, not .*busy; nothing was done`),
    );
    expect(refused.output).not.toMatch(/\n\s+at .+[(:]\d+/);
  }, 300_000);
});

describe.skipIf(!built)('a reader that goes away', () => {
  it('`… | head`: the command stops quietly when its output pipe closes, no EPIPE stack trace', async () => {
    const { spawn } = await import('node:child_process');
    const { generateHome } = await import('../fixtures');
    const manifest = await generateHome({ dir: join(tmp.dir, 'pipe-home'), scale: 'small', version: 'both', seed: 8, git: false });
    // Hundreds of hit lines, each its own write: the reader leaves after the first.
    const child = spawn(
      process.execPath,
      [bin, 'search', 'test', '--limit', '500', '--codex-home', manifest.codexHome, '--data-dir', join(tmp.dir, 'data-pipe')],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // Like `head -1`: read the first chunk, then close the pipe while the command is still writing.
    await new Promise<void>((resolvePromise) => child.stdout.once('data', () => resolvePromise()));
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolvePromise) => child.once('exit', (c) => resolvePromise(c)));
    expect(stderr).not.toMatch(/EPIPE|\n\s+at .+[(:]\d+/);
    expect(code === 0 || code === 1).toBe(true);
  }, 300_000);
});
