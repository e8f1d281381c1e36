// Codex's DB faults as StudioFailures: a DbProblem, or a raw SQLite error on one of Codex's files, with its closed fault kind.
import { statSync } from 'node:fs';
import type { DbName, DbProblem, DbProblemKind } from '../../../shared/health';
import type { ErrorKind, FaultKind } from '../../../shared/result';
import { StudioFailure } from '../platform/errors';
import { fullWords, troubleAt } from '../platform/storage-faults';
import { classifyDbError, dbProblem, describeDb } from './open-db';

/** Each problem's kind in the contract: a locked DB is `Locked` (the CLI's exit 3), as Codex's own lease is. */
const PROBLEM_FAULTS: Record<DbProblemKind, { kind: ErrorKind; fault: FaultKind }> = {
  missing: { kind: 'NotFound', fault: 'codex-db-missing' },
  locked: { kind: 'Locked', fault: 'codex-db-locked' },
  corrupt: { kind: 'Unsupported', fault: 'codex-db-corrupt' },
  schema: { kind: 'Unsupported', fault: 'codex-db-schema' },
  unreadable: { kind: 'Unsupported', fault: 'codex-db-unreadable' },
};

/**
 * The problem as a failure; `doing` says what could not be done ("Memory Studio cannot take Codex's v1 memory lock"),
 * `after` what that means for the person's files ("Nothing was written.").
 */
export function dbProblemFailure(problem: DbProblem, doing?: string, after?: string): StudioFailure {
  const { kind, fault } = PROBLEM_FAULTS[problem.kind];
  const message = doing ? `${doing}: ${problem.message}` : problem.message;
  return new StudioFailure(kind, message, { path: problem.path, fault, hint: after ? `${problem.hint} ${after}` : problem.hint });
}

function sizeOf(path: string): number | null {
  try {
    return statSync(path).size;
  } catch {
    return null;
  }
}

/**
 * An error met while reading or writing one of Codex's DBs (Apply's DB changes, Codex's lease) as a failure that names
 * the file: locked, damaged, not a database, a schema Memory Studio does not know, an empty file, or a full disk.
 * A StudioFailure (a refusal with its own words) passes through unchanged.
 */
export function codexDbFailure(db: DbName, path: string, error: unknown, doing: string, after: string): StudioFailure {
  // Opening refuses what is not a regular file (a folder, a FIFO) in its own words: that is the DB's fault too.
  if (error instanceof StudioFailure && !error.fault && error.path === path)
    return new StudioFailure(error.kind, `${doing}: ${error.message}`, {
      path,
      fault: 'codex-db-unreadable',
      hint: `${error.hint ?? ''} ${after}`.trim(),
      cause: error,
    });
  if (error instanceof StudioFailure) return error;
  const trouble = troubleAt(error, path);
  if (trouble === 'full') {
    return new StudioFailure('Unsupported', `${doing}: ${describeDb(db, path)} cannot be written, ${fullWords(error)}.`, {
      path,
      fault: 'disk-full',
      cause: error,
      hint: `Free some space on the disk of the Codex home, then try again. ${after}`,
    });
  }
  let problem = classifyDbError(db, path, error);
  if (problem.kind === 'schema' && sizeOf(path) === 0) {
    problem = dbProblem(
      db,
      path,
      'schema',
      `${describeDb(db, path)} is an empty file (0 bytes): it has none of Codex's tables yet.`,
      'Codex creates its tables when it next starts with memories enabled; if the file stays empty, move it aside and let Codex make it again.',
    );
  }
  return dbProblemFailure(problem, doing, after);
}
