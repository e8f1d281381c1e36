// Where a CLI command's terminal is: this process's own, or (a command answered by `memory-studio keep`) the client's,
// whose stdout and stderr the keeper forwards. Commands ask here instead of `process.stdout.isTTY` and write progress
// through here instead of `process.stderr.write`, so one command runs the same in both places.
export interface CliTerminal {
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  writeStderr(text: string): void;
}

let current: CliTerminal | null = null;

/** The keeper: the terminal of the request it is answering (requests run one at a time), or null after it. */
export function useTerminal(terminal: CliTerminal | null): void {
  current = terminal;
}

export const stdoutIsTTY = (): boolean => (current ? current.stdoutIsTTY : process.stdout.isTTY === true);
export const stderrIsTTY = (): boolean => (current ? current.stderrIsTTY : process.stderr.isTTY === true);

export function writeStderr(text: string): void {
  if (current) current.writeStderr(text);
  else process.stderr.write(text);
}
