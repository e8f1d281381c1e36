// What every Memory Studio process puts right in its data folder at start-up: private modes, dead runs' staging, the trash.
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { readJournals } from '../apply/journal';
import { maskTrash, trashDir } from '../apply/trash';
import { sweepStaging } from '../consolidate/staging-runs';
import { ensurePrivateDirSync, narrowTree } from '../platform/private-files';
import { DEMO_HOME_DIR } from '../handlers/demo-home-choice';

export interface DataFolderCare {
  /** Folders and files whose mode was narrowed to 0700 / 0600 (a folder made by an older build). */
  narrowed: number;
  /** Staging folders of consolidation runs whose process is gone. */
  stagingRemoved: string[];
  /** Files in the trash whose secrets were masked (an Apply killed after its renames, or an older build's trash). */
  trashMasked: number;
}

/**
 * The trash folders an unfinished Apply's journal still names: recovery may need those files whole. Null when a
 * journal cannot be read (recovery refused it): which folders it needs is unknown, so the whole trash is kept as it is.
 */
async function trashInUse(dataDir: string): Promise<Set<string> | null> {
  const root = trashDir(dataDir);
  const inUse = new Set<string>();
  const { journals, unreadable } = await readJournals(dataDir);
  if (unreadable.length > 0) return null;
  for (const { journal } of journals) {
    for (const entry of journal.entries) {
      const first = entry.trash ? relative(root, entry.trash).split(sep)[0] : undefined;
      if (first && !first.startsWith('..')) inUse.add(join(root, first));
    }
  }
  return inUse;
}

/**
 * Run once per process, after recovery has finished or undone what a killed Apply left: the data folder becomes 0700
 * with every file 0600 (the demo home, a Codex home of its own, is left as it is), the staging copy of a killed
 * consolidation goes, and the trash is masked. None of it touches a memory folder.
 */
export async function careForDataFolder(dataDir: string): Promise<DataFolderCare | null> {
  if (!existsSync(dataDir)) return null;
  // The person may have pointed the data folder through a symlink: its target is the folder to keep private.
  const real = realpathSync(dataDir);
  // A folder this build made is 0700 and holds 0600 files from the start: only an older build's folder is walked.
  const older = (lstatSync(real).mode & 0o077) !== 0;
  ensurePrivateDirSync(real);
  const narrowed = older ? await narrowTree(real, [DEMO_HOME_DIR]) : 0;
  const stagingRemoved = await sweepStaging(dataDir);
  const inUse = await trashInUse(dataDir);
  const trashMasked = inUse ? await maskTrash(dataDir, inUse) : 0;
  return { narrowed, stagingRemoved, trashMasked };
}

/** A line for the log when the care removed or masked something, else null (narrowed modes need nobody's attention). */
export function describeCare(care: DataFolderCare | null): string | null {
  if (!care) return null;
  const parts = [
    care.stagingRemoved.length > 0 ? `${care.stagingRemoved.length} staging folder(s) of a consolidation that was killed removed` : '',
    care.trashMasked > 0 ? `${care.trashMasked} file(s) in the trash masked` : '',
  ].filter(Boolean);
  return parts.length > 0 ? `In the data folder: ${parts.join('; ')}.` : null;
}
