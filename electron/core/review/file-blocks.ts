// The structured view's data for one file of a proposal: its blocks with the hunks assigned, cached while unchanged.
import { createHash } from 'node:crypto';
import type { FileBlocks, Hunk } from '../../../shared/review';
import { StudioFailure } from '../platform/errors';
import type { StudioDb } from '../studio-db';
import { computeFileBlocksAsync } from './hunks-off-thread';
import { loadFileRow, loadProposalRow } from './proposal-rows';

/** A few recent outlines: the review asks again on every refetch, and a 5 MB MEMORY.md takes a parse per side. */
const CACHE_SIZE = 16;
const cache = new Map<string, FileBlocks>();

function cacheKey(id: string, ord: number, base: string | null, proposed: string | null, hunksJson: string): string {
  const hash = createHash('sha256');
  for (const part of [base ?? '\0absent', proposed ?? '\0absent', hunksJson]) hash.update(part).update('\0');
  return `${id}\0${ord}\0${hash.digest('hex')}`;
}

/** Blocks of file `ord` of proposal `id`, matched between its base and proposed content (off the main loop when large). */
export async function proposalFileBlocks(db: StudioDb, id: string, ord: number): Promise<FileBlocks> {
  loadProposalRow(db, id);
  const row = loadFileRow(db, id, ord);
  if (!row) throw new StudioFailure('Invalid', `Proposal ${id} has no file number ${ord}.`);
  const key = cacheKey(id, ord, row.base_content, row.proposed_content, row.hunks_json);
  const hit = cache.get(key);
  if (hit) return hit;
  const blocks = await computeFileBlocksAsync(
    row.base_content,
    row.proposed_content,
    { relPath: row.rel_path, version: row.version },
    JSON.parse(row.hunks_json) as Hunk[],
  );
  cache.set(key, blocks);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return blocks;
}
