// A CLI command's world: its folder, environment, terminal, output and (in the keeper) index. A command run by this
// process uses the process's own; a command that `memory-studio keep` answers for a client runs inside `runWithIo` with
// the client's, carried by AsyncLocalStorage. Nothing is redirected process-wide: no chdir, no swapped globals, so a
// request's output, paths and index cannot leak into another's or into the keeper's own log.
import { AsyncLocalStorage } from 'node:async_hooks';
import { resolve } from 'node:path';
import { resolveCodexHome, resolveDataDir, type HomeChoice } from '../core/service/use-cases/locate';
import type { CliIndexProvider } from './cli-index';

export interface CliIo {
  /** The folder relative paths in arguments are resolved against. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Text already masked by the console (see cli-output.ts) or written as is by progress lines. */
  write(stream: 'out' | 'err', text: string): void;
  /** The keeper's kept index of its home (any other home opens as usual); null in a command's own process. */
  index: CliIndexProvider | null;
  /** How the client was started, for the commands it prints (cli-follow-up.ts); absent in a command's own process. */
  prefix?: string;
}

const store = new AsyncLocalStorage<CliIo>();

/** Runs `work` (and everything it starts) with `io` as its world. */
export function runWithIo<T>(io: CliIo, work: () => Promise<T>): Promise<T> {
  return store.run(io, work);
}

/**
 * Runs `work` outside any request's world: for what outlives the request that started it (the keeper's watches and
 * its settle timer), whose later callbacks would otherwise write to that request's long-closed client.
 */
export function runOutsideIo<T>(work: () => T): T {
  return store.exit(work);
}

/** The I/O of the request being answered, or null in a command's own process. */
export const requestIo = (): CliIo | null => store.getStore() ?? null;

export const cliCwd = (): string => requestIo()?.cwd ?? process.cwd();
export const cliEnv = (): NodeJS.ProcessEnv => requestIo()?.env ?? process.env;
export const stdoutIsTTY = (): boolean => requestIo()?.stdoutIsTTY ?? process.stdout.isTTY === true;
export const stderrIsTTY = (): boolean => requestIo()?.stderrIsTTY ?? process.stderr.isTTY === true;

export function writeStderr(text: string): void {
  const io = requestIo();
  if (io) io.write('err', text);
  else process.stderr.write(text);
}

/** A path the person typed, made absolute against the command's folder (the shell has expanded `~` already). */
export const cliPath = (path: string): string => resolve(cliCwd(), path);

/** `--data-dir`, `MEMORY_STUDIO_DATA` or the platform's folder, resolved in the command's folder and environment. */
export const cliDataDir = (flag: string | undefined): string => resolveDataDir({ flag, env: cliEnv(), cwd: cliCwd() });

/** `--codex-home`, `CODEX_HOME` or `~/.codex`, resolved in the command's folder and environment. */
export const cliCodexHome = (flag: string | undefined): HomeChoice => resolveCodexHome({ flag, env: cliEnv(), cwd: cliCwd() });
