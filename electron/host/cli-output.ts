// Everything the CLI prints goes through the secret engine: no secret reaches a terminal, a CI log or a pipe in clear.
import { format } from 'node:util';
import { toStudioError } from '../core/platform/errors';
import { maskSecretsDeep, maskSecretsInText } from '../core/service/use-cases/output';
import { CliUsageError } from './cli-errors';
import { requestIo } from './cli-io';
import { withCliPrefix } from './cli-follow-up';

/** Set while printJson writes (its text is already masked value by value) or printUnmasked: no text masking then. */
let printingJson = false;

/** JSON with every string masked (value by value, so the output stays valid JSON). */
export function printJson(value: unknown, pretty = true): void {
  printingJson = true;
  try {
    console.log(JSON.stringify(maskSecretsDeep(value), null, pretty ? 2 : undefined));
  } finally {
    printingJson = false;
  }
}

/** A line printed as is: the serve URL's access token is meant for the person who started it. */
export function printUnmasked(line: string): void {
  printingJson = true;
  try {
    console.log(line);
  } finally {
    printingJson = false;
  }
}

let installed = false;

/** Where console output goes instead of this process's streams, or null. */
export type ConsoleSink = (stream: 'out' | 'err', text: string) => void;
let processSink: ConsoleSink | null = null;

/**
 * For a process whose stdout is not the person's (`memory-studio mcp`: stdout is the protocol), where all its console
 * output goes instead. A request the keeper answers is routed by its own I/O (cli-io.ts), not by this.
 */
export function routeProcessConsole(next: ConsoleSink | null): void {
  processSink = next;
}

/** Masks the text lines the commands print with console.log / console.error (messages, hunks, injected text). */
export function installMaskingConsole(): void {
  if (installed) return;
  installed = true;
  for (const name of ['log', 'error', 'warn', 'info'] as const) {
    const original = console[name].bind(console);
    const mask = (a: unknown) =>
      typeof a === 'string' ? maskSecretsInText(a) : a instanceof Error ? maskSecretsInText(a.stack ?? a.message) : a;
    const stream = name === 'log' || name === 'info' ? 'out' : 'err';
    console[name] = (...args: unknown[]) => {
      const shown = printingJson ? args : args.map(mask);
      // A request the keeper answers prints to its client; anything else to this process (or its sink).
      const io = requestIo();
      if (io) io.write(stream, `${format(...shown)}\n`);
      else if (processSink) processSink(stream, `${format(...shown)}\n`);
      else original(...shown);
    };
  }
}

/**
 * Runs a command; a failure is printed as `{ ok: false, error }` with --json (else as its message and hint), exit 1 (3
 * when locked).
 * Usage errors and Ctrl+C during an index build go on to main, which prints the usage or exits 130.
 */
export async function reportingFailures(json: boolean | undefined, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (
      error instanceof CliUsageError ||
      (error as Error).name === 'CliCancelled' ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    )
      throw error;
    const failure = toStudioError(error);
    if (json) printJson({ ok: false, error: failure }, false);
    else console.error(`${failure.message}${failure.hint ? ` ${withCliPrefix(failure.hint)}` : ''}`);
    return failure.kind === 'Locked' ? 3 : 1;
  }
}
