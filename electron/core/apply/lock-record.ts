// A lock file's content as a schema: whether a root's lock may be taken over is judged from it, so a lock read back is
// parsed with it, and the type the lock is written with is derived from it. Loaded only when a lock file is found.
import { z } from 'zod';
import { type ParsedRecord, parseRecord } from '../platform/record-json';

export const LockContentSchema = z.object({
  pid: z.number().int(),
  hostname: z.string(),
  /** `namespaceId()`: a pid is only checked in its own machine, boot and PID namespace (absent in older locks). */
  namespace: z.string().optional(),
  startedAt: z.number(),
  root: z.string(),
  token: z.string(),
  /** The root is a project folder (swept at its top only); absent in older locks and for memory roots. */
  project: z.boolean().optional(),
});
export type LockContent = z.infer<typeof LockContentSchema>;

/** Who wrote a lock: all the stale rule's pid check needs, still readable in a lock whose other fields are damaged. */
const LockHolderSchema = LockContentSchema.pick({ pid: true, hostname: true, namespace: true });
export type LockHolder = z.infer<typeof LockHolderSchema>;

export interface ParsedLock {
  content: LockContent | null;
  holder: LockHolder | null;
  /** Why `content` is null. */
  problem: string | null;
}

export function parseLock(bytes: Buffer): ParsedLock {
  const content: ParsedRecord<LockContent> = parseRecord(LockContentSchema, bytes);
  if (content.ok) return { content: content.value, holder: content.value, problem: null };
  const holder = parseRecord(LockHolderSchema, bytes);
  return { content: null, holder: holder.ok ? holder.value : null, problem: content.problem };
}
