// The lease record's shape as a schema: recovery writes the `previous` it holds back into Codex's DB, so a record read
// back is parsed with it, and the types the row and record are written with are derived from it. Loaded only when a
// record is read back (lease-row.ts `readLeaseRecord`).
import { z } from 'zod';
import { type ParsedRecord, parseRecord } from '../platform/record-json';

const IntOrNull = z.number().int().nullable();

/** The columns a release restores (everything the claim changes). */
export const LeaseRowStateSchema = z.object({
  status: z.string(),
  worker_id: z.string().nullable(),
  ownership_token: z.string().nullable(),
  started_at: IntOrNull,
  finished_at: IntOrNull,
  lease_until: IntOrNull,
  retry_at: IntOrNull,
  retry_remaining: z.number().int(),
  last_error: z.string().nullable(),
  input_watermark: IntOrNull,
});
export type LeaseRowState = z.infer<typeof LeaseRowStateSchema>;

/** Written before our claim commits, so a process killed while holding the lease can be undone by the next one. */
export const LeaseRecordSchema = z.object({
  dbPath: z.string().min(1),
  token: z.string().min(1),
  workerId: z.string(),
  pid: z.number().int(),
  hostname: z.string(),
  /** `namespaceId()` of the writer: only a record of our namespace is judged by its pid. Absent in older records. */
  namespace: z.string().optional(),
  /** null: the row did not exist and our claim inserted it. */
  previous: LeaseRowStateSchema.nullable(),
});
export type LeaseRecord = z.infer<typeof LeaseRecordSchema>;

export function parseLeaseRecord(bytes: Buffer): ParsedRecord<LeaseRecord> {
  return parseRecord(LeaseRecordSchema, bytes);
}
