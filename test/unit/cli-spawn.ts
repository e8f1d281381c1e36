// The built CLI run as a person runs it, in the checkout (the commands it prints start bin/memory-studio, as typed
// there), with nothing of the person running the suite: a home and a data folder under the test's own folder, no keeper.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '..', '..');
export const cliBin = join(repoRoot, 'electron', 'host', 'bin.cjs');
export const cliBuilt = existsSync(join(repoRoot, 'out', 'electron', 'host', 'cli.js'));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  output: string;
}

/** Runs `args` with CODEX_HOME `<dir>/no-home` and MEMORY_STUDIO_DATA `<dir>/data` unless `env` names others; `input` is its stdin. */
export function runIsolatedCli(dir: string, args: string[], env: NodeJS.ProcessEnv = {}, timeout = 60_000, input?: string): CliRun {
  const result = spawnSync(process.execPath, [cliBin, ...args], {
    input,
    cwd: repoRoot,
    encoding: 'utf8',
    timeout,
    env: {
      ...process.env,
      CODEX_HOME: join(dir, 'no-home'),
      MEMORY_STUDIO_DATA: join(dir, 'data'),
      MEMORY_STUDIO_NO_KEEPER: '1',
      MEMORY_STUDIO_DEBUG: '',
      ...env,
    },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, output: `${result.stdout}${result.stderr}` };
}
