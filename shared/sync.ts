// Sync through a git remote (issue 25) as it crosses the contract: the settings, a push, a pull, the status.
import { z } from 'zod';
import { MemoryVersionSchema } from './domain';

const HeldBackSchema = z.object({ path: z.string(), reason: z.string() });

const PushRecordSchema = z.object({
  at: z.number(),
  commit: z.string().nullable(),
  published: z.number(),
  heldBack: z.array(HeldBackSchema),
});
const PullRecordSchema = z.object({
  at: z.number(),
  commit: z.string().nullable(),
  proposalId: z.string().nullable(),
  arrived: z.number(),
});

export const SyncInitInputSchema = z
  .object({
    /** Any URL the person's git can reach, or a folder holding a bare repository. */
    remote: z.string().min(1).max(4096),
    machine: z.string().min(1).max(63).optional(),
    person: z.string().min(1).max(63).optional(),
    /** Publish only the MEMORY.md entries of this project folder (a team remote). */
    scopeProject: z.string().min(1).max(4096).nullable().optional(),
    /** The named folder on the remote is this machine's own from before: publish into it. */
    takeOver: z.boolean().optional(),
  })
  .strict()
  .refine((v) => v.machine === undefined || v.person === undefined, 'give a machine or a person, not both');
export type SyncInitInput = z.infer<typeof SyncInitInputSchema>;

export const SyncSettingsViewSchema = z.object({
  remote: z.string(),
  owner: z.string(),
  scopeProject: z.string().nullable(),
  createdAt: z.number(),
  formerOwners: z.array(z.string()),
  lastPush: PushRecordSchema.nullable(),
  lastPull: PullRecordSchema.nullable(),
});

export const SyncPushResultSchema = z.object({
  remote: z.string(),
  owner: z.string(),
  version: MemoryVersionSchema,
  published: z.number(),
  heldBack: z.array(HeldBackSchema),
  leftOut: z.number(),
  changed: z.boolean(),
  commit: z.string().nullable(),
  retries: z.number(),
});
export type SyncPushResult = z.infer<typeof SyncPushResultSchema>;

export const SyncArrivalSchema = z.object({
  owner: z.string(),
  version: MemoryVersionSchema,
  key: z.string(),
  files: z.number(),
  changed: z.number(),
  heldBack: z.array(HeldBackSchema),
  problem: z.string().nullable(),
});

export const SyncPullResultSchema = z.object({
  remote: z.string(),
  owner: z.string(),
  commit: z.string().nullable(),
  arrivals: z.array(SyncArrivalSchema),
  ignored: z.array(z.string()),
  /** The pending import proposal of what arrived (review it like any other), or null when nothing new arrived. */
  proposalId: z.string().nullable(),
  reused: z.boolean(),
  superseded: z.string().nullable(),
  /** The earlier pull's proposal the person rejected, which carried exactly this: not proposed again until it changes. */
  declined: z.string().nullable(),
  /** Arrivals whose machine or person is gone from the remote: the proposal removes them (only ones this remote wrote). */
  removed: z.array(z.string()),
  problems: z.array(z.string()),
});
export type SyncPullResult = z.infer<typeof SyncPullResultSchema>;

export const SyncStatusSchema = z.object({
  configured: z.boolean(),
  version: MemoryVersionSchema,
  remote: z.string().nullable(),
  owner: z.string().nullable(),
  scopeProject: z.string().nullable(),
  lastPush: PushRecordSchema.nullable(),
  lastPull: PullRecordSchema.nullable(),
  pending: z.object({ added: z.array(z.string()), changed: z.array(z.string()), removed: z.array(z.string()) }),
  heldBack: z.array(HeldBackSchema),
  others: z.array(z.string()),
});
export type SyncStatus = z.infer<typeof SyncStatusSchema>;
