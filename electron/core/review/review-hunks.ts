// The hunks a review shows for one file: block-aligned for Codex's block-structured files, plain line hunks otherwise.
import type { FileBlocks, Hunk } from '../../../shared/review';
import { type BlockFile, computeBlockHunks, fileBlocksOf } from './blocks/block-hunks';
import { computeFileHunks } from './hunks';

export type { BlockFile } from './blocks/block-hunks';

/**
 * Hunks between two versions of a file. With `file` (its root-relative path) a MEMORY.md, memory_summary.md,
 * raw_memories.md or SKILL.md is diffed block by block: a hunk never spans two blocks and a moved block is one
 * removal and one insertion (the structured view pairs them), so a rebuilt file reads as the blocks that changed.
 */
export function computeReviewHunks(base: string | null, proposed: string | null, file?: BlockFile): Hunk[] {
  if (file && base !== null && proposed !== null && base !== proposed) {
    const hunks = computeBlockHunks(base, proposed, file);
    if (hunks) return hunks;
  }
  return computeFileHunks(base, proposed);
}

/** The file's blocks with `hunks` assigned to them (see `fileBlocksOf`). */
export function computeFileBlocks(base: string | null, proposed: string | null, file: BlockFile, hunks: readonly Hunk[]): FileBlocks {
  return fileBlocksOf(base, proposed, file, hunks);
}
