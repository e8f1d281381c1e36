// The journal's shape as a schema: recovery acts on what a journal says (which temp file to rename over which target,
// what to move to the trash, what to record), so a journal read back is parsed with it, and the types Apply writes
// are derived from it, so the two cannot drift apart. Loaded only when a journal is found (journal.ts).
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { MemoryVersionSchema } from '../../../shared/domain';
import { MaskedHistoryFileSchema } from '../history/masked-file';
import { type ParsedRecord, parseRecord } from '../platform/record-json';

/** Apply checks every root is absolute (prepare.ts); its target and temp file are built from it. */
const AbsolutePath = z.string().refine(isAbsolute, 'expected an absolute path');
const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expected a SHA-256 in hex');

export const JournalEntrySchema = z.object({
  version: MemoryVersionSchema,
  root: AbsolutePath,
  relPath: z.string().min(1),
  /** Absolute target path (already checked inside the root). */
  target: AbsolutePath,
  /** Temp file holding the proposed bytes; null for a deletion. */
  temp: AbsolutePath.nullable(),
  /** Where a deletion moves the file; null for a write. */
  trash: z.string().min(1).nullable(),
  baseSha256: Sha256.nullable(),
  targetSha256: Sha256.nullable(),
  /** A project's AGENTS.md: its folder is swept for temp files at its top only, never walked (it is a whole repository). */
  project: z.boolean().optional(),
});
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

/** One file of the history entry Apply records, by hash: the decided result's change to the proposal file `ord`. */
export const RecordFileSchema = z.object({
  ord: z.number().int(),
  beforeSha256: Sha256.nullable(),
  afterSha256: Sha256.nullable(),
});
export type RecordFile = z.infer<typeof RecordFileSchema>;

/**
 * One history file as journaled. A file without a secret is journaled without its texts (`stored`, before and after
 * null): they are the proposal's stored base and the file Apply wrote, which recovery reads back and checks by hash,
 * so a 5 MB MEMORY.md does not cost 10 MB of journal before the first rename.
 */
export const JournaledHistoryFileSchema = MaskedHistoryFileSchema.extend({ ord: z.number().int(), stored: z.literal(true).optional() });
export type JournaledHistoryFile = z.infer<typeof JournaledHistoryFileSchema>;

/**
 * What recovery needs to record an Apply it finishes exactly as the Apply would have (by proposal, whatever its
 * source): the proposal is the journal's id; the decided result is checked against `files` (every file the history
 * entry lists, those already in place included) before the entry is written with `summary`; the proposal's Codex-DB
 * changes are made again (they are idempotent) with the DB files and leases named here. No text in clear is kept.
 */
export const JournalRecordSchema = z.object({
  summary: z.string(),
  files: z.array(RecordFileSchema),
  /**
   * The entry's files exactly as the Apply records them (texts masked as history keeps them, real hashes, what a
   * change removed): the live texts before are gone once renamed, so recovery records these. Absent in older journals.
   */
  history: z.array(JournaledHistoryFileSchema).optional(),
  db: z
    .object({
      /** The DB file each change names (`memories_v1`, `memories_v2`, `state`), as Apply resolved it. */
      paths: z.partialRecord(z.string(), z.string()),
      /** The versions whose Codex lease the DB step holds, with their root (locked) and memory DB. */
      /** `lease: false`: the root is locked but no lease is taken (a repair's guarded swap). */
      leases: z.array(
        z.object({ version: MemoryVersionSchema, root: AbsolutePath, dbPath: z.string(), lease: z.literal(false).optional() }),
      ),
    })
    .optional(),
});
export type JournalRecord = z.infer<typeof JournalRecordSchema>;

export const JournalSchema = z.object({
  id: z.string().min(1),
  pid: z.number().int(),
  createdAt: z.number(),
  entries: z.array(JournalEntrySchema),
  /** Set by a proposal's Apply: recovery then records the history entry, provenance and status it would have. */
  record: JournalRecordSchema.optional(),
});
export type Journal = z.infer<typeof JournalSchema>;

export function parseJournal(bytes: Buffer): ParsedRecord<Journal> {
  return parseRecord(JournalSchema, bytes);
}
