// The CLI's usage error (a wrong flag or argument: main prints it, as JSON with --json, and exits 2), and exit codes.
import { existsSync } from 'node:fs';
import { StudioFailure } from '../core/platform/errors';

export class CliUsageError extends Error {}

/** Apply's exit codes: 2 a conflict (the file changed since the proposal), 3 Codex holds its lease, 1 anything else. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof StudioFailure && error.kind === 'Conflict') return 2;
  if (error instanceof StudioFailure && error.kind === 'Locked') return 3;
  return 1;
}

/** A folder the person named (or the Codex home chosen for them) that is not there: one line, and what to do. */
export function requireFolder(path: string, hint: string): void {
  if (!existsSync(path)) throw new StudioFailure('NotFound', `${path} does not exist.`, { path, hint });
}

export const HOME_HINT = 'Pass --codex-home DIR (the folder Codex keeps config.toml and memories/ in), or set CODEX_HOME.';
