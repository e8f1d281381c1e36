// The CLI's usage error (a wrong flag or argument: main prints it with the usage text and exits 2), and exit codes.
import { StudioFailure } from '../core/errors';

export class CliUsageError extends Error {}

/** Apply's exit codes: 2 a conflict (the file changed since the proposal), 3 Codex holds its lease, 1 anything else. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof StudioFailure && error.kind === 'Conflict') return 2;
  if (error instanceof StudioFailure && error.kind === 'Locked') return 3;
  return 1;
}
