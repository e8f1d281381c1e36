// Which files of a pending proposal changed on disk since it was made (or last rebased): the warning shown before Apply.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProposalStaleness, StaleFile } from '../../../shared/review';
import { StudioFailure } from '../platform/errors';
import type { StudioDb } from '../studio-db';
import { readDiskBase } from './disk-base';
import { type FileRow, loadProposalRow } from './proposal-rows';

type Target = Pick<FileRow, 'ord' | 'version' | 'target' | 'root' | 'rel_path' | 'base_sha256'>;

const REBASE = "Rebase to merge the disk's changes into the proposal before applying it.";

/**
 * The check runs on every change the watcher reports, for every file of the open proposal (an import can have
 * thousands): a file whose size, mtime and inode are as last hashed is not read again. Only the warning uses this;
 * Apply always hashes the bytes under its locks.
 */
const hashed = new Map<string, { size: number; mtimeMs: number; ino: number; sha: string }>();
const MAX_REMEMBERED = 50_000;

async function diskSha(row: Target): Promise<string | null> {
  const path = join(row.root, ...row.rel_path.split('/'));
  const info = await lstat(path).catch(() => null);
  const known = hashed.get(path);
  if (info?.isFile() && known && known.size === info.size && known.mtimeMs === info.mtimeMs && known.ino === info.ino) return known.sha;
  const sha = (await readDiskBase(row.root, row.version, row.rel_path, row.target))?.sha256 ?? null;
  if (hashed.size >= MAX_REMEMBERED) hashed.clear();
  if (sha !== null && info?.isFile()) hashed.set(path, { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino, sha });
  return sha;
}

async function staleFile(row: Target): Promise<StaleFile | null> {
  const at = { ord: row.ord, version: row.version, relPath: row.rel_path };
  let sha: string | null;
  try {
    sha = await diskSha(row);
  } catch (error) {
    const why = error instanceof StudioFailure ? error.message : String(error);
    return {
      ...at,
      state: 'unreadable',
      message: `${row.rel_path} cannot be read as it is on disk now (${why}); Apply would refuse it. Restore the file or reject the proposal.`,
    };
  }
  if (sha === row.base_sha256) return null;
  if (sha === null) return { ...at, state: 'deleted', message: `${row.rel_path} was deleted on disk since you proposed it. ${REBASE}` };
  if (row.base_sha256 === null)
    return { ...at, state: 'created', message: `${row.rel_path} was created on disk since you proposed it. ${REBASE}` };
  return { ...at, state: 'changed', message: `${row.rel_path} changed on disk since you proposed it. ${REBASE}` };
}

/** Reads each file of a pending proposal and compares it with its base hash; applied or rejected proposals are never stale. */
export async function stalenessOf(db: StudioDb, id: string): Promise<ProposalStaleness> {
  const proposal = loadProposalRow(db, id);
  if (proposal.status !== 'pending') return { proposalId: id, stale: [] };
  const stale: StaleFile[] = [];
  // Only the hashes: the contents (megabytes each) are not needed to see that the disk moved on.
  const rows = db
    .stmt<[string], Target>(
      'SELECT ord, version, target, root, rel_path, base_sha256 FROM proposal_files WHERE proposal_id = ? ORDER BY ord',
    )
    .all(id);
  for (const row of rows) {
    const file = await staleFile(row);
    if (file) stale.push(file);
  }
  return { proposalId: id, stale };
}
