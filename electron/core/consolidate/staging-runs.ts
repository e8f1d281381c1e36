// A consolidation run's staging folder in the data folder: who owns it, and removing the ones whose run is gone.
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../platform/atomic-write';
import { deadInThisNamespace, parseStudioWorker, studioWorkerId } from '../platform/host-identity';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../platform/private-files';
import { readRegularFile } from '../platform/regular-file';
import { removeTreeGently } from '../platform/remove-tree';

export const STAGING_DIR = 'staging';

/** Written first in a run's folder: the run's process (`memory-studio:<pid>@<namespace>`), so a later one can tell it died. */
const OWNER_FILE = 'owner';

/** A folder without an owner (made by an older build) is removed once a day old, never a live run's. */
const STALE_STAGING_MS = 24 * 60 * 60 * 1000;

export function stagingRunDir(dataDir: string, runId: string): string {
  return join(dataDir, STAGING_DIR, runId);
}

/** Makes the run's folder (0700) and records this process as its owner, before anything is copied into it. */
export async function claimStagingRun(dataDir: string, runId: string): Promise<void> {
  const dir = stagingRunDir(dataDir, runId);
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  await writeFileAtomic(join(dir, OWNER_FILE), studioWorkerId(), PRIVATE_FILE_MODE);
}

/**
 * Removes a run's folder a few entries at a time (`removeTreeGently`: a heavy root's copy is 4,000+ files, and
 * `fs.promises.rm` held the main loop 70 ms for it), its owner record last: cut short by a crash, what is left is still
 * a dead run's folder, which the next start removes.
 */
export async function removeStagingDir(dir: string): Promise<void> {
  await removeTreeGently(dir, { last: OWNER_FILE });
}

async function ownerGone(dir: string): Promise<boolean | null> {
  const owner = await readRegularFile(join(dir, OWNER_FILE), OWNER_FILE, 4096).then(
    (file) => file.bytes.toString('utf8'),
    () => null,
  );
  const holder = owner === null ? null : parseStudioWorker(owner.trim());
  return holder ? deadInThisNamespace(holder.pid, holder.namespace) : null;
}

/**
 * Removes staging left by runs that are over: a folder whose owner process (of this machine, boot and PID namespace)
 * is gone, at once, since a killed run's copy of a memory folder must not stay in the data folder for good; one
 * without an owner once a day old. Never a run of `live`, nor one whose owner lives or belongs to another namespace.
 * Returns the folders removed.
 */
export async function sweepStaging(dataDir: string, live: ReadonlySet<string> = new Set(), now = Date.now()): Promise<string[]> {
  const root = join(dataDir, STAGING_DIR);
  const removed: string[] = [];
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (live.has(name)) continue;
    const dir = join(root, name);
    const gone = await ownerGone(dir);
    const info = gone === null ? await stat(dir).catch(() => null) : null;
    if (gone === true || (info && now - info.mtimeMs > STALE_STAGING_MS)) {
      await removeStagingDir(dir).catch(() => undefined);
      removed.push(dir);
    }
  }
  return removed;
}
