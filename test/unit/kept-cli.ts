// What the keeper's tests share: the CLI run as a person runs it, with or without a keeper, and a host process (`keep`
// or `serve`) started and read as it prints. The home and data folder are read when called (set in a beforeAll).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { until } from './helpers';

export const root = resolve(__dirname, '..', '..');
export const bin = join(root, 'electron', 'host', 'bin.cjs');

export interface Host {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** A report's JSON without what differs from run to run (how long it took, when it was made). */
export const withoutTimes = (text: string): unknown =>
  JSON.parse(text, (key, value: unknown) => (key === 'elapsedMs' || key === 'generatedAt' ? 0 : value));

export function keptCli(place: () => { codexHome: string; data: string }) {
  const where = () => ['--codex-home', place().codexHome, '--data-dir', place().data];
  /** A command that uses a keeper when one answers (it waits for one as long as it takes). */
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, [bin, ...args, ...where()], {
      encoding: 'utf8',
      env: { ...process.env, MEMORY_STUDIO_NO_KEEPER: '', MEMORY_STUDIO_KEEPER_ACCEPT_MS: '120000', ...env },
      timeout: 120_000,
    });
  /** The same command with no keeper. */
  const local = (args: string[]) => run(args, { MEMORY_STUDIO_NO_KEEPER: '1' });
  /** Starts `args` (keep, serve) on the home, until its stdout matches `ready` (or it ended). */
  const start = async (args: string[], ready: RegExp): Promise<Host> => {
    const child = spawn(process.execPath, [bin, ...args, ...where()], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, MEMORY_STUDIO_NO_KEEPER: '', MEMORY_STUDIO_NO_ELECTRON: '1' },
    });
    let out = '';
    let err = '';
    child.stdout?.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    let gone = false;
    void exited.then(() => (gone = true));
    await until(`${args[0]} to start`, () => ready.test(out) || gone, 120_000);
    return { child, stdout: () => out, stderr: () => err, exited };
  };
  return { run, local, start };
}
