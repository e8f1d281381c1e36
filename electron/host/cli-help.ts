// Per-command help and short usage errors: a wrong flag is said in a line or two with its fix, then a pointer to the
// command's own help; never the whole usage text. Loads nothing else, so `CMD --help` answers in a blink.
import { CHANGE_HELP } from './cli-help-change';
import { READ_HELP, type CommandHelp } from './cli-help-read';

const HELP: Record<string, CommandHelp> = { ...READ_HELP, ...CHANGE_HELP };

/** Names people try for a command that has another name. */
const ALIASES: Record<string, string> = {
  list: 'proposals',
  ls: 'proposals',
  diff: 'show',
  view: 'show',
  status: 'inspect',
  find: 'search',
};

export const commandNames = (): string[] => Object.keys(HELP);

export function helpOf(command: string): CommandHelp | undefined {
  return Object.hasOwn(HELP, command) ? HELP[command] : undefined;
}

/** `memory-studio help CMD`: usage, what it does, options, exit codes, an example. */
export function formatHelp(command: string): string {
  const help = helpOf(command);
  if (!help) return '';
  const width = Math.max(...help.options.map(([flag]) => flag.length));
  return [
    'Usage:',
    ...help.usage.map((line) => `  ${line}`),
    '',
    help.about,
    '',
    'Options:',
    ...help.options.map(([flag, what]) => `  ${flag.padEnd(width)}  ${what}`),
    '',
    `Exit codes: ${help.exits}`,
    '',
    'Example:',
    `  ${help.example}`,
  ].join('\n');
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length] ?? Infinity;
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; d: number } | undefined;
  for (const name of candidates) {
    const d = distance(word, name);
    if (!best || d < best.d) best = { name, d };
  }
  return best && best.d <= Math.max(2, Math.floor(word.length / 3)) ? best.name : undefined;
}

/** The long options a command takes (`--codex-home`, ...), from its help. */
function optionsOf(command: string): string[] {
  const help = helpOf(command);
  const flags = (help?.options ?? []).flatMap(([flag]) => flag.match(/--[a-z][a-z-]*/g) ?? []);
  return [...new Set(flags)];
}

/** How an option is written with its value (`--version v1|v2`), from the command's help. */
function spelled(command: string, option: string): string {
  const found = helpOf(command)?.options.find(([flag]) => flag === option || flag.startsWith(`${option} `));
  return found ? found[0] : option;
}

/** An unknown command: the closest name (or the one people mean by it), and where the commands are listed. */
export function unknownCommand(command: string): string {
  const guess = ALIASES[command] ?? closest(command, commandNames());
  const mean = guess ? ` Did you mean "memory-studio ${guess}"?` : '';
  return `Unknown command "${command}".${mean}\nCommands: memory-studio --help`;
}

/** The first line(s) of a parse failure in the person's words, naming the fix. */
function parseFailure(command: string, code: string, message: string): string {
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = quoted.split('=')[0] ?? quoted;
    const guess = closest(option, optionsOf(command));
    if (guess) return `${command} has no option ${option}. Did you mean ${spelled(command, guess)}?`;
    return `${command} has no option ${option}. Its options: ${optionsOf(command).join(', ')}.`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = quoted.split(' ')[0] ?? quoted;
    if (/does not take an argument/.test(message)) return `${option} takes no value: write ${option} alone.`;
    return `${option} needs a value: ${spelled(command, option)}.`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return `${command} takes no argument "${quoted}"; options are written --name VALUE.`;
  }
  return message;
}

/**
 * A usage error of `command` as a script reads it with --json (`{ ok: false, error }`): `message` says what was wrong
 * and the fix, `hint` where the command's options (or the commands) are. `Invalid`, the contract's kind for a request
 * that cannot be done as asked (`shared/result.ts`); the exit code, 2, is what tells it from other failures.
 */
export function usageFailure(
  command: string | undefined,
  error: Error & { code?: string },
): { kind: 'Invalid'; message: string; hint: string } {
  const known = command !== undefined && helpOf(command) !== undefined;
  const first = error.code?.startsWith('ERR_PARSE_ARGS') && known ? parseFailure(command, error.code, error.message) : error.message;
  const commands = 'Commands: memory-studio --help';
  if (/^Unknown command /.test(first)) {
    // unknownCommand's own last line is that pointer.
    const cut = first.lastIndexOf('\n');
    return { kind: 'Invalid', message: cut === -1 ? first : first.slice(0, cut), hint: cut === -1 ? commands : first.slice(cut + 1) };
  }
  return { kind: 'Invalid', message: first, hint: known ? `Help: memory-studio ${command} --help` : commands };
}

/** `CMD --help` or `CMD -h` among the command's arguments (not after `--`). */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  const own = end === -1 ? args : args.slice(0, end);
  return own.includes('--help') || own.includes('-h');
}
