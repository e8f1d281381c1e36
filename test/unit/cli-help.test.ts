// Every command has its own help (`CMD --help`, `help CMD`: usage, options, exit codes, an example; exit 0), and a
// wrong option is said in a line or two naming the fix, then a pointer to that help: never the whole usage text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBuilt as built, runIsolatedCli } from './cli-spawn';
import { makeTempDir } from './helpers';

// Every command of the usage text (sync's subcommands share its help).
const COMMANDS = [
  'start',
  'serve',
  'demo-home',
  'inspect',
  'lint',
  'secrets',
  'budget',
  'coverage',
  'search',
  'keep',
  'mcp',
  'parse',
  'propose',
  'note',
  'redact',
  'forget',
  'proposals',
  'show',
  'rebase',
  'apply',
  'history',
  'revert',
  'consolidate',
  'import',
  'doctor',
  'promote',
  'sync',
  'export',
];

let tmp: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.cleanup());

const run = (args: string[]) => runIsolatedCli(tmp.dir, args);

const lines = (text: string) => text.trim().split('\n');

describe.skipIf(!built)('per-command help', () => {
  for (const command of COMMANDS) {
    it(`${command} --help and help ${command} print its usage, options, exit codes and an example`, () => {
      const own = run([command, '--help']);
      expect(own.status, own.output).toBe(0);
      expect(own.stdout).toContain(`memory-studio ${command}`);
      for (const part of ['Usage:', 'Options:', 'Exit codes: 0', 'Example:']) expect(own.stdout).toContain(part);
      // Its own help, not the whole usage (which names every command).
      expect(own.stdout).not.toContain('Where things are:');
      expect(run(['help', command]).stdout).toBe(own.stdout);
    });
  }
});

describe.skipIf(!built)('short usage errors that name the fix', () => {
  for (const command of COMMANDS) {
    it(`${command} with an unknown option says so in a line, lists its options and points to its help`, () => {
      // sync's options are read after its subcommand.
      const args = command === 'sync' ? ['sync', 'status', '--no-such-option'] : [command, '--no-such-option'];
      const { status, output } = run(args);
      expect(status, output).toBe(2);
      expect(lines(output).length, output).toBeLessThan(6);
      expect(output).toContain(`${command} has no option --no-such-option. Its options: `);
      expect(output).toContain(`Help: bin/memory-studio ${command} --help`);
      expect(output).not.toContain('Usage:');
    });
  }

  it('a misspelt option gets the right spelling, with its value', () => {
    const { status, output } = run(['inspect', '--verison', 'v1']);
    expect(status).toBe(2);
    expect(lines(output)).toEqual([
      'inspect has no option --verison. Did you mean --version v1|v2?',
      'Help: bin/memory-studio inspect --help',
    ]);
  });

  it('an option without its value, and a flag given one, say how to write them', () => {
    expect(lines(run(['search', 'flaky', '--limit']).output)[0]).toBe('--limit needs a value: --limit N.');
    expect(lines(run(['lint', '--json=yes']).output)[0]).toBe('--json takes no value: write --json alone.');
  });

  it('a missing argument or a missing secret choice: one line and the pointer', () => {
    for (const [args, says] of [
      [['show'], /^show needs a proposal id: bin\/memory-studio show ID \(bin\/memory-studio proposals lists the ids\)\.$/],
      [['search'], /^search needs a query: bin\/memory-studio search QUERY/],
      [['import', '--from', 'claude', '--apply'], /^--apply needs --redact-secrets or --skip-secret-files/],
    ] as const) {
      const { status, output } = run([...args]);
      expect(status).toBe(2);
      expect(lines(output)).toHaveLength(2);
      expect(lines(output)[0]).toMatch(says);
      expect(lines(output)[1]).toBe(`Help: bin/memory-studio ${args[0]} --help`);
    }
  });

  it('an unknown command names the one meant, and where the commands are listed', () => {
    const list = run(['list']);
    expect(list.status).toBe(2);
    expect(lines(list.output)).toEqual([
      'Unknown command "list". Did you mean "bin/memory-studio proposals"?',
      'Commands: bin/memory-studio --help',
    ]);
    expect(lines(run(['inspekt']).output)[0]).toBe('Unknown command "inspekt". Did you mean "bin/memory-studio inspect"?');
    expect(run(['help', 'frobnicate']).status).toBe(2);
  });

  it('the whole usage is still there when asked for', () => {
    for (const args of [['--help'], ['help'], []]) {
      const { status, stdout } = run(args);
      expect(status).toBe(0);
      expect(stdout).toContain('Where things are:');
    }
  });
});
