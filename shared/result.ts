// Results and errors as data: the only shape that crosses the main/renderer and HTTP boundaries.
import { z } from 'zod';

/** The closed set of error kinds; every failure a person sees is one of these. */
export const errorKinds = ['NotFound', 'Invalid', 'Conflict', 'Locked', 'Busy', 'Unsupported', 'Internal'] as const;
export const ErrorKindSchema = z.enum(errorKinds);
export type ErrorKind = z.infer<typeof ErrorKindSchema>;

export const StudioErrorSchema = z.object({
  kind: ErrorKindSchema,
  /** What happened, to which file, in words a Codex user understands. */
  message: z.string(),
  /** The file or folder concerned, when there is one. */
  path: z.string().optional(),
  /** What the person can do next. */
  hint: z.string().optional(),
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
