// The hunks a review shows for one file: block-aligned for Codex's block-structured files, plain line hunks otherwise,
// with the lines that hold a secret marked and an added one always a hunk of its own.
import type { FileBlocks, Hunk } from '../../../shared/review';
import { type BlockFile, computeBlockHunks, fileBlocksOf, hunksOfBlockDiff } from './blocks/block-hunks';
import { buildHunk, computeFileHunks, CONTEXT_LINES } from './hunks';
import { diffLineArrays, groupBlocks, splitLines } from './lines';
import { isolateSecretLines, markHunksOf, markSecrets, secretLinesAround, type SecretLines } from './secret-lines';

export type { BlockFile } from './blocks/block-hunks';
export type { SecretLines } from './secret-lines';

/** Plain line hunks (as `computeHunks`), except that an added secret line is cut out as its own hunk. */
function lineHunks(base: string, proposed: string, given?: SecretLines): Hunk[] {
  const a = splitLines(base);
  const b = splitLines(proposed);
  const changes = diffLineArrays(a, b);
  const secrets = given ?? secretLinesAround(a, b, changes);
  const isolated = isolateSecretLines(changes, secrets, { a, b });
  const hunks = isolated.some((c) => c.alone)
    ? hunksOfBlockDiff(a, b, { changes: isolated.map((c) => ({ ...c, unit: 0 })) }).map((h) => h.hunk)
    : groupBlocks(CONTEXT_LINES, changes).map((group) => buildHunk(a, b, group));
  return markSecrets(hunks, secrets);
}

/**
 * Hunks between two versions of a file. With `file` (its root-relative path) a MEMORY.md, memory_summary.md,
 * raw_memories.md or SKILL.md is diffed block by block: a hunk never spans two blocks and a moved block is one
 * removal and one insertion (the structured view pairs them), so a rebuilt file reads as the blocks that changed.
 * Every hunk lists its lines that hold a secret (`secrets`), and no added secret shares a hunk with other lines:
 * accepting a block never writes one unseen. A created or deleted file is one hunk, decided whole, and marked.
 * The secret lines are scanned in the texts, unless `secrets` gives them: stored texts are masked, and their callers
 * pass the lines at-rest recorded as masked (with what each held), so the marks survive masking.
 */
export function computeReviewHunks(base: string | null, proposed: string | null, file?: BlockFile, secrets?: SecretLines): Hunk[] {
  if (base !== null && proposed !== null && base !== proposed) {
    const hunks = file ? computeBlockHunks(base, proposed, file, secrets) : null;
    return hunks ?? lineHunks(base, proposed, secrets);
  }
  return markHunksOf(splitLines(base ?? ''), splitLines(proposed ?? ''), computeFileHunks(base, proposed), secrets);
}

/** The file's blocks with `hunks` assigned to them (see `fileBlocksOf`). */
export function computeFileBlocks(base: string | null, proposed: string | null, file: BlockFile, hunks: readonly Hunk[]): FileBlocks {
  return fileBlocksOf(base, proposed, file, hunks);
}
