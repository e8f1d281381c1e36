// Runs the built `memory-studio` command as a user would (whole process, --json) against a real Codex home.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';

const repoRoot = resolve(import.meta.dirname, '..', '..', '..');
const bin = join(repoRoot, 'electron', 'host', 'bin.cjs');

export interface StudioResult<T = unknown> {
  code: number | null;
  json: T;
  stdout: string;
  stderr: string;
}

/** `memory-studio ARGS --json`, parsed; throws with its output when stdout is not JSON. */
export function studio<T = unknown>(args: string[], env: NodeJS.ProcessEnv = {}): Promise<StudioResult<T>> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [bin, ...args, '--json'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolvePromise({ code, json: JSON.parse(stdout) as T, stdout, stderr });
      } catch {
        reject(
          new Error(`memory-studio ${args.join(' ')} printed no JSON (exit ${code}):\n${stdout.slice(0, 2000)}\n${stderr.slice(0, 2000)}`),
        );
      }
    });
  });
}
