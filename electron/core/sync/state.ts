// The sync folder in Memory Studio's data folder: the clone, the settings record, and the lock two syncs share.
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { acquireLockFile, releaseLockFile, touchLockFile } from '../apply/lock-file';
import { writeFileAtomic } from '../platform/atomic-write';
import { findSecretSpans } from '../lint';
import { StudioFailure } from '../platform/errors';
import { controlCharacterIn } from '../platform/safe-path';
import { ensurePrivateDirSync } from '../platform/private-files';
import { parseRecord } from '../platform/record-json';

export { defaultMachineName } from './root';

/** The branch every sync remote uses (one history all machines append to). */
export const SYNC_BRANCH = 'main';
/** The manifest's format tag: a reader refuses any other. */
export const MANIFEST_FORMAT = 'memory-studio-sync/1';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** A file or folder name every system can check out: no Windows device name, no `<>:"|?*`, no trailing dot or space. */
export function isPortableName(name: string): boolean {
  return !WINDOWS_RESERVED.test(name) && !/[<>:"|?*\\]/.test(name) && !/[. ]$/.test(name) && controlCharacterIn(name) === null;
}

/** A machine or person name as a folder of the remote: letters, digits, `.`, `_`, `-`; no `..`; at most 63. */
export function checkOwnerName(name: string, what: 'machine' | 'person'): string {
  if (!NAME.test(name) || name.includes('..') || !isPortableName(name))
    throw new StudioFailure('Invalid', `"${name}" cannot name a ${what} folder of the sync remote.`, {
      hint: `Use letters, digits, ".", "_" and "-" only (at most 63, starting with a letter or digit), e.g. --${what} laptop.`,
    });
  return name;
}

/** A remote URL never carries a password or token into our records (git would keep it in the clone's config in clear). */
export function checkRemoteUrl(url: string): string {
  const trimmed = url.trim();
  if (trimmed === '' || trimmed.startsWith('-') || /[\0\n\r]/.test(trimmed))
    throw new StudioFailure('Invalid', `"${trimmed}" is not a git remote URL.`, {
      hint: 'Pass --remote any URL your git can reach: git@host:you/memory.git, https://host/you/memory.git, or a folder holding a bare repository.',
    });
  // http(s) needs no user name with a credential helper, so anything before "@" there may be a token; a query or a
  // fragment may carry one too (?private_token=...); and nothing the secret engine flags is ever stored.
  if (
    /^[a-z][a-z0-9+.-]*:\/\/[^/@]*:[^/@]*@/i.test(trimmed) ||
    /^https?:\/\/[^/]*@/i.test(trimmed) ||
    (/^https?:\/\//i.test(trimmed) && /[?#]/.test(trimmed)) ||
    findSecretSpans(trimmed).length > 0
  )
    throw new StudioFailure(
      'Invalid',
      'The remote URL may hold a password or token (a user part, a query, or a key), which Memory Studio will not store.',
      {
        hint: 'Give the URL without it and let your git credential helper or SSH key answer (git config --global credential.helper ...).',
      },
    );
  return trimmed;
}

const PushRecordSchema = z.object({
  at: z.number(),
  commit: z.string().nullable(),
  published: z.number(),
  heldBack: z.array(z.object({ path: z.string(), reason: z.string() })),
});

const PullRecordSchema = z.object({
  at: z.number(),
  commit: z.string().nullable(),
  proposalId: z.string().nullable(),
  arrived: z.number(),
});

export const SyncSettingsSchema = z.object({
  remote: z.string(),
  /** `machines/<name>` or, for a person on a team remote, `people/<name>`. */
  owner: z.string(),
  /** Publish only entries of this project folder (a team remote). */
  scopeProject: z.string().nullable(),
  createdAt: z.number(),
  /** Folders this data folder published under before a re-init under another name: never pulled back as arrivals. */
  formerOwners: z.array(z.string()).default([]),
  lastPush: PushRecordSchema.nullable(),
  lastPull: PullRecordSchema.nullable(),
});
export type SyncSettings = z.infer<typeof SyncSettingsSchema>;
export type PushRecord = z.infer<typeof PushRecordSchema>;
export type PullRecord = z.infer<typeof PullRecordSchema>;

export interface SyncPaths {
  dir: string;
  clone: string;
  settings: string;
}

export function syncPaths(dataDir: string): SyncPaths {
  const dir = join(dataDir, 'sync');
  return { dir, clone: join(dir, 'clone'), settings: join(dir, 'sync.json') };
}

export async function readSettings(paths: SyncPaths): Promise<SyncSettings | null> {
  const bytes = await readFile(paths.settings).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (bytes === null) return null;
  const parsed = parseRecord(SyncSettingsSchema, bytes);
  if (!parsed.ok)
    throw new StudioFailure('Invalid', `The sync settings ${paths.settings} cannot be read: ${parsed.problem}.`, {
      path: paths.settings,
      hint: 'Run "memory-studio sync init --remote URL" again to write them anew (your memory and the remote are not touched).',
    });
  return parsed.value;
}

export async function requireSettings(paths: SyncPaths): Promise<SyncSettings> {
  const settings = await readSettings(paths);
  if (!settings)
    throw new StudioFailure('NotFound', 'Sync is not set up for this data folder.', {
      hint: 'Run "memory-studio sync init --remote URL" first (any git URL your git can reach, e.g. a bare repository).',
    });
  return settings;
}

export async function writeSettings(paths: SyncPaths, settings: SyncSettings): Promise<void> {
  await mkdir(paths.dir, { recursive: true });
  await writeFileAtomic(paths.settings, `${JSON.stringify(settings, null, 2)}\n`, 0o600);
}

/**
 * One sync at a time per data folder (a push and a pull share the clone), across processes and within one (the app
 * answers every request in one process): Apply's lock file, keyed by the clone's path, with its stale-holder takeover
 * (a dead pid of this machine, or a holder silent for ten minutes). A live holder, this process included, is `Busy`.
 */
export async function takeSyncLock(paths: SyncPaths, dataDir: string): Promise<() => Promise<void>> {
  ensurePrivateDirSync(paths.dir);
  try {
    // `project`: a folder that is no memory root, swept for Apply's temp files at its top only if ever left stale.
    const lock = await acquireLockFile(dataDir, paths.clone, Date.now(), true);
    // A live holder touches its lock, as Apply's does: a long push (five fetch-and-push rounds) is never taken for stale.
    const beat = setInterval(() => void touchLockFile(lock), 30_000);
    beat.unref();
    return async () => {
      clearInterval(beat);
      await releaseLockFile(lock);
    };
  } catch (error) {
    if (error instanceof StudioFailure && error.kind === 'Locked')
      throw new StudioFailure('Busy', `Another sync is using ${paths.clone}.`, { hint: 'Wait for it to finish, then try again.' });
    throw error;
  }
}
