// A script that passes --json always gets JSON on stdout, a usage error too: `{ ok: false, error: { kind: 'Invalid',
// message, hint } }`, exit 2, nothing on stderr; without --json the same two lines stay on stderr.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliBuilt as built, runIsolatedCli } from './cli-spawn';
import { makeTempDir } from './helpers';

let tmp: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  tmp = await makeTempDir();
});
afterAll(() => tmp.cleanup());

const run = (args: string[]) => runIsolatedCli(tmp.dir, args);

/** The run's stdout as the usage failure a script reads; its exit code 2 and an empty stderr. */
function usageFailureOf(args: string[]): { kind: string; message: string; hint: string } {
  const { status, stdout, stderr } = run(args);
  expect(status, `${stdout}${stderr}`).toBe(2);
  expect(stderr).toBe('');
  expect(stdout.trim().split('\n')).toHaveLength(1);
  const parsed = JSON.parse(stdout) as { ok: boolean; error: { kind: string; message: string; hint: string } };
  expect(parsed.ok).toBe(false);
  expect(Object.keys(parsed.error).sort()).toEqual(['hint', 'kind', 'message']);
  expect(parsed.error.kind).toBe('Invalid');
  return parsed.error;
}

// Every command of the usage text (sync's options are read after its subcommand).
const COMMANDS = [
  ['start'],
  ['serve'],
  ['demo-home'],
  ['inspect'],
  ['lint'],
  ['secrets'],
  ['budget'],
  ['coverage'],
  ['search', 'q'],
  ['keep'],
  ['mcp'],
  ['parse'],
  ['propose'],
  ['note'],
  ['redact'],
  ['forget'],
  ['proposals'],
  ['show'],
  ['rebase'],
  ['apply'],
  ['history'],
  ['revert'],
  ['consolidate'],
  ['import'],
  ['doctor'],
  ['promote'],
  ['sync', 'status'],
  ['export'],
];

describe.skipIf(!built)('usage errors with --json', () => {
  it('a missing or wrong option of import, export, sync and inspect is JSON on stdout, exit 2', () => {
    expect(usageFailureOf(['import', '--from', 'nowhere', '--plan', '--json'])).toEqual({
      kind: 'Invalid',
      message: 'import needs --from claude, cursor or bundle.',
      hint: 'Help: memory-studio import --help',
    });
    expect(usageFailureOf(['export', '--json']).message).toMatch(/^export needs --out FILE/);
    expect(usageFailureOf(['sync', 'bogus', '--json'])).toEqual({
      kind: 'Invalid',
      message: 'sync needs one of init, push, pull, status, not "bogus".',
      hint: 'Help: memory-studio sync --help',
    });
    expect(usageFailureOf(['inspect', '--verison', 'v1', '--json'])).toEqual({
      kind: 'Invalid',
      message: 'inspect has no option --verison. Did you mean --version v1|v2?',
      hint: 'Help: memory-studio inspect --help',
    });
  });

  it('a missing argument, a flag given a value and an unknown command too', () => {
    expect(usageFailureOf(['search', '--json']).message).toMatch(/^search needs a query: /);
    expect(usageFailureOf(['apply', '--json']).message).toMatch(/^apply needs a proposal id: /);
    expect(usageFailureOf(['import', '--from', 'claude', '--apply', '--json']).message).toMatch(/^--apply needs --redact-secrets/);
    expect(usageFailureOf(['lint', '--limit', '--json']).message).toMatch(/^lint has no option --limit/);
    expect(usageFailureOf(['inspekt', '--json'])).toEqual({
      kind: 'Invalid',
      message: 'Unknown command "inspekt". Did you mean "memory-studio inspect"?',
      hint: 'Commands: memory-studio --help',
    });
  });

  for (const args of COMMANDS) {
    it(`${args[0]} with an unknown option and --json answers in JSON`, () => {
      const error = usageFailureOf([...args, '--no-such-option', '--json']);
      expect(error.message).toMatch(new RegExp(`^${args[0]} has no option --no-such-option\\. Its options: `));
      expect(error.hint).toBe(`Help: memory-studio ${args[0]} --help`);
    });
  }

  it('without --json (or with it after --) the two lines stay on stderr', () => {
    for (const args of [
      ['sync', 'bogus'],
      ['sync', 'bogus', '--', '--json'],
    ]) {
      const { status, stdout, stderr } = run(args);
      expect(status).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toHaveLength(2);
      expect(stderr).toContain(`Help: bin/memory-studio ${args[0]} --help`);
    }
  });
});
