// Results and errors as data: the only shape that crosses the main/renderer and HTTP boundaries.
import { z } from 'zod';

/**
 * The closed set of error kinds; every failure a person sees is one of these. `Busy`: something else is using what was
 * asked for (a store locked by another process, a rate limit, a run already going); trying again later may work.
 * `Cancelled`: the work was stopped before it finished (a cancel, a superseded request, the app closing); nothing was
 * changed by it. `Locked`: Codex holds its lock or lease.
 */
export const errorKinds = ['NotFound', 'Invalid', 'Conflict', 'Locked', 'Busy', 'Cancelled', 'Unsupported', 'Internal'] as const;
export const ErrorKindSchema = z.enum(errorKinds);
export type ErrorKind = z.infer<typeof ErrorKindSchema>;

/**
 * Which fault of the machine or of Codex's files an error is, when it is one (never a Memory Studio bug): a closed
 * set beside the kind, so the CLI, the UI and scripts can tell a damaged Codex DB from a full disk without reading
 * the message. `codex-db-*`: one of Codex's SQLite files (`path` names it); `disk-full`: a write found no space (or a
 * quota or file-size limit); `data-unwritable`: Memory Studio's data folder cannot be written (permissions, a
 * read-only or failing disk); `staging-write`: a consolidation's own copy in the data folder could not be written.
 */
export const faultKinds = [
  'codex-db-missing',
  'codex-db-corrupt',
  'codex-db-locked',
  'codex-db-schema',
  'codex-db-unreadable',
  'disk-full',
  'data-unwritable',
  'staging-write',
] as const;
export const FaultKindSchema = z.enum(faultKinds);
export type FaultKind = z.infer<typeof FaultKindSchema>;

export const StudioErrorSchema = z.object({
  kind: ErrorKindSchema,
  /** What happened, to which file, in words a Codex user understands. */
  message: z.string(),
  /** The file or folder concerned, when there is one. */
  path: z.string().optional(),
  /** What the person can do next. */
  hint: z.string().optional(),
  /** Set when the failure is a fault of the machine or of Codex's files (see `faultKinds`). */
  fault: FaultKindSchema.optional(),
});
export type StudioError = z.infer<typeof StudioErrorSchema>;

export type Result<T> = { ok: true; value: T } | { ok: false; error: StudioError };

export function resultSchema<T extends z.ZodTypeAny>(value: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: StudioErrorSchema }),
  ]);
}

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (error: StudioError): Result<never> => ({ ok: false, error });
