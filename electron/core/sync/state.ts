// The sync folder in Memory Studio's data folder: the clone, the settings record, and the lock two syncs share.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../platform/atomic-write';
import { StudioFailure } from '../platform/errors';
import { ensurePrivateDirSync } from '../platform/private-files';
import { processAlive } from '../platform/process-alive';
import { parseRecord } from '../platform/record-json';

/** The branch every sync remote uses (one history all machines append to). */
export const SYNC_BRANCH = 'main';
/** The manifest's format tag: a reader refuses any other. */
export const MANIFEST_FORMAT = 'memory-studio-sync/1';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** A machine or person name as a folder of the remote: letters, digits, `.`, `_`, `-`; no `..`; at most 63. */
export function checkOwnerName(name: string, what: 'machine' | 'person'): string {
  if (!NAME.test(name) || name.includes('..'))
    throw new StudioFailure('Invalid', `"${name}" cannot name a ${what} folder of the sync remote.`, {
      hint: `Use letters, digits, ".", "_" and "-" only (at most 63, starting with a letter or digit), e.g. --${what} laptop.`,
    });
  return name;
}

/** This machine's default name: its host name, made a safe folder name. */
export function defaultMachineName(): string {
  const cleaned = hostname()
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/\.\.+/g, '.')
    .slice(0, 63);
  return cleaned === '' ? 'machine' : cleaned;
}

/** A remote URL never carries a password or token into our records (git would keep it in the clone's config in clear). */
export function checkRemoteUrl(url: string): string {
  const trimmed = url.trim();
  if (trimmed === '' || trimmed.startsWith('-') || /[\0\n\r]/.test(trimmed))
    throw new StudioFailure('Invalid', `"${trimmed}" is not a git remote URL.`, {
      hint: 'Pass --remote any URL your git can reach: git@host:you/memory.git, https://host/you/memory.git, or a folder holding a bare repository.',
    });
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/@]*:[^/@]*@/i.test(trimmed))
    throw new StudioFailure('Invalid', 'The remote URL holds a password or token, which Memory Studio will not store.', {
      hint: 'Give the URL without it and let your git credential helper or SSH key answer (git config --global credential.helper ...).',
    });
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
  lock: string;
}

export function syncPaths(dataDir: string): SyncPaths {
  const dir = join(dataDir, 'sync');
  return { dir, clone: join(dir, 'clone'), settings: join(dir, 'sync.json'), lock: join(dir, 'lock') };
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
 * One sync at a time per data folder (a push and a pull share the clone): an exclusive lock file holding our pid. A lock
 * whose process is gone (a killed sync) is taken over; the clone is reset at the start of every sync anyway.
 */
export function takeSyncLock(paths: SyncPaths): () => void {
  ensurePrivateDirSync(paths.dir);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(paths.lock, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(paths.lock);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSafe(paths.lock), 10);
      if (Number.isInteger(holder) && holder > 0 && processAlive(holder) && holder !== process.pid)
        throw new StudioFailure('Busy', `Another sync (process ${holder}) is using ${paths.clone}.`, {
          hint: 'Wait for it to finish, then try again.',
        });
      try {
        unlinkSync(paths.lock);
      } catch {
        // Someone else took it over first: the next attempt says who holds it.
      }
    }
  }
  throw new StudioFailure('Busy', `Another sync is starting on ${paths.clone}.`, { hint: 'Try again in a moment.' });
}

function readFileSafe(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
