// One file of a history entry as history keeps it, as a schema: Apply journals these before its first rename and
// recovery records them from the journal, so the type both sides use is derived from the schema the journal is
// parsed with (they cannot drift apart). Loaded only where a journal is read back, not with the rest of history.
import { z } from 'zod';
import { MemoryVersionSchema } from '../../../shared/domain';
import { FileTargetSchema } from '../../../shared/review';

/** One file of an entry as history keeps it: masked texts, the real SHA-256s (`maskHistoryFile`). */
export const MaskedHistoryFileSchema = z.object({
  masked: z.literal(true),
  version: MemoryVersionSchema,
  target: FileTargetSchema,
  root: z.string(),
  relPath: z.string(),
  beforeSha256: z.string().nullable(),
  before: z.string().nullable(),
  afterSha256: z.string().nullable(),
  after: z.string().nullable(),
  maskedLines: z.string().nullable(),
  secretsRemoved: z.number().int().nonnegative(),
});

export type MaskedHistoryFile = z.infer<typeof MaskedHistoryFileSchema>;
