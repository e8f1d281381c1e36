// The `memory-studio` command line. Each command's modules load only when it runs, so `--help` starts in a blink.
import { parseArgs } from 'node:util';
import { CliUsageError } from './cli-errors';
import { asksForHelp, formatHelp, helpOf, unknownCommand, usageFailure } from './cli-help';
import { USAGE } from './cli-usage';
import { packageVersion } from './paths';

type Command = (argv: string[]) => Promise<number>;

/** Every command by name, each behind a dynamic import (the inspect family does not load review, review not import...). */
const COMMANDS: Record<string, Command> = {
  'demo-home': async (argv) => (await import('./cli-host.js')).demoHome(argv),
  parse: async (argv) => (await import('./cli-parse.js')).parseCommand(argv),
  inspect: async (argv) => (await import('./cli-inspect.js')).inspectCommand(argv),
  lint: async (argv) => (await import('./cli-inspect.js')).lintCommand(argv),
  secrets: async (argv) => (await import('./cli-inspect.js')).secretsCommand(argv),
  budget: async (argv) => (await import('./cli-inspect.js')).budgetCommand(argv),
  coverage: async (argv) => (await import('./cli-coverage.js')).coverageCommand(argv),
  search: async (argv) => (await import('./cli-search.js')).searchCommand(argv),
  keep: async (argv) => (await import('./keeper.js')).keepCommand(argv),
  mcp: async (argv) => (await import('./mcp.js')).mcpCommand(argv),
  propose: async (argv) => (await import('./cli-review.js')).proposeCommand(argv),
  note: async (argv) => (await import('./cli-review.js')).noteCommand(argv),
  redact: async (argv) => (await import('./cli-review.js')).redactCommand(argv),
  forget: async (argv) => (await import('./cli-review.js')).forgetCommand(argv),
  proposals: async (argv) => (await import('./cli-proposals.js')).proposalsCommand(argv),
  show: async (argv) => (await import('./cli-review.js')).showCommand(argv),
  apply: async (argv) => (await import('./cli-apply.js')).applyCommand(argv),
  rebase: async (argv) => (await import('./cli-review.js')).rebaseCommand(argv),
  history: async (argv) => (await import('./cli-review.js')).historyCommand(argv),
  revert: async (argv) => (await import('./cli-review.js')).revertCommand(argv),
  consolidate: async (argv) => (await import('./cli-consolidate.js')).consolidateCommand(argv),
  import: async (argv) => (await import('./cli-import.js')).importCommand(argv),
  doctor: async (argv) => (await import('./cli-doctor.js')).doctorCommand(argv),
  promote: async (argv) => (await import('./cli-doctor.js')).promoteCommand(argv),
  sync: async (argv) => (await import('./cli-sync.js')).syncCommand(argv),
  export: async (argv) => (await import('./cli-export.js')).exportCommand(argv),
};

/**
 * Any other failure, in the person's words: its message and what to do, never a stack trace (MEMORY_STUDIO_DEBUG=1
 * adds it, for a bug report). A demo-home into a non-empty folder, a home that cannot be read: one or two lines. With
 * --json it is `{ ok: false, error }` on stdout, so a script always gets JSON; a fault (a full disk, a damaged Codex DB)
 * is never called a bug. Exit 3 when locked (Codex's lease, a Codex DB another writer holds), else 1.
 */
async function printUnexpected(error: unknown, json: boolean): Promise<number> {
  const [{ toStudioError }, { printJson }, { withCliPrefix }] = await Promise.all([
    import('../core/platform/errors.js'),
    import('./cli-output.js'),
    import('./cli-follow-up.js'),
  ]);
  const failure = toStudioError(error);
  if (json) printJson({ ok: false, error: failure }, false);
  else console.error(`${failure.message}${failure.hint ? `\n${withCliPrefix(failure.hint)}` : ''}`);
  if (process.env.MEMORY_STUDIO_DEBUG && error instanceof Error && error.stack) console.error(error.stack);
  else if (failure.kind === 'Internal' && !failure.fault)
    console.error('This looks like a bug in Memory Studio; run again with MEMORY_STUDIO_DEBUG=1 for the details to report.');
  return failure.kind === 'Locked' ? 3 : 1;
}

/** `--json` among the arguments (not after `--`): every answer, a usage error too, is then JSON on stdout. */
function asksForJson(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).includes('--json');
}

/**
 * A usage error: what was wrong and its fix, then where the command's options are; never the whole usage. With --json
 * the same two lines as `{ ok: false, error: { kind: 'Invalid', message, hint } }` on stdout, so a script asking for
 * JSON always gets it. Exit 2 either way.
 */
async function printUsageError(command: string | undefined, error: Error & { code?: string }, json: boolean): Promise<number> {
  const failure = usageFailure(command, error);
  if (json) (await import('./cli-output.js')).printJson({ ok: false, error: failure }, false);
  else console.error((await import('./cli-follow-up.js')).withCliPrefix(`${failure.message}\n${failure.hint}`));
  return 2;
}

/** `help`, `help CMD`, `CMD --help`: the whole usage, or one command's own (exit 0); null when not asked for. */
function printHelp(command: string | undefined, rest: string[]): number | null {
  if (command === undefined || command === '--help' || command === '-h' || (command === 'help' && rest.length === 0)) {
    console.log(USAGE);
    return 0;
  }
  const named = command === 'help' ? rest[0] : asksForHelp(rest) ? command : undefined;
  if (named === undefined) return null;
  if (!helpOf(named)) throw new CliUsageError(unknownCommand(named));
  console.log(formatHelp(named));
  return 0;
}

/**
 * `npm start --codex-home DIR` hands `--codex-home` to npm (it becomes npm_config_codex_home) and only DIR to the CLI:
 * said, with the way to pass options through npm.
 */
function strayArgument(command: string, word: string): string {
  const eaten = Object.keys(process.env)
    .filter((k) => /^npm_config_(codex_home|data_dir|port|demo|serve)$/.test(k))
    .map((k) => `--${k.slice('npm_config_'.length).replace('_', '-')}`);
  if (eaten.length === 0) return `${command} takes no argument "${word}".`;
  return `${command} takes no argument "${word}": npm took ${eaten.join(', ')} for itself. Put options after --: npm ${command === 'start' ? 'start' : 'run serve'} -- ${eaten[0]} ${word}`;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    const helped = printHelp(command, rest);
    if (helped !== null) return helped;
    if (command === '--version' || command === 'version') {
      console.log(packageVersion());
      return 0;
    }
    // What each pool task runs (loaded only past the answers that need nothing).
    (await import('../core/service/use-cases/runtime.js')).installTasks();
    if (command === 'start' || command === 'serve') {
      (await import('./cli-output.js')).installMaskingConsole();
      const host = await import('./cli-host.js');
      const { values, positionals } = parseArgs({ args: rest, options: host.commonOptions, allowPositionals: true });
      if (positionals.length > 0) throw new CliUsageError(strayArgument(command, positionals[0] ?? ''));
      host.parsePort(values.port);
      return command === 'start' ? await host.start(values) : await host.serve(values);
    }
    const run = command === undefined ? undefined : COMMANDS[command];
    if (!run) throw new CliUsageError(unknownCommand(command ?? ''));
    // Everything a command prints goes through the secret engine (the usage text above has nothing to mask).
    (await import('./cli-output.js')).installMaskingConsole();
    return await run(rest);
  } catch (error) {
    // Ctrl+C during a cold index build: what was indexed is kept (the message says so), the usual 130.
    if ((error as Error).name === 'CliCancelled') {
      console.error((error as Error).message);
      return 130;
    }
    if (error instanceof CliUsageError || (error as { code?: string } | undefined)?.code?.startsWith('ERR_PARSE_ARGS'))
      return printUsageError(command, error as Error & { code?: string }, asksForJson(argv));
    return printUnexpected(error, asksForJson(argv));
  }
}
