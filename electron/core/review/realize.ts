// What Apply writes for a reviewed proposal: the decided result over the live file, whose unchanged lines keep their secrets.
import type { FileResult, Hunk, ProposalResult } from '../../../shared/review';
import { StudioFailure } from '../platform/errors';
import { maskTextForStorage } from '../lint/mask-at-rest';
import type { StudioDb } from '../studio-db';
import { readDiskBase, sha256Text } from './disk-base';
import { resolveFile } from './hunks';
import { loadDecisions, loadFileRow, type FileDecisionRows, type FileRow } from './proposal-rows';
import { resultOf } from './proposals';
import { maskedLineGuard, maskedLinesOf, parseMaskedLines } from './stored-texts';

/** One changing file as Apply sees it: the real bytes to write (or null to delete) and the live text they replace. */
export interface RealizedFile {
  file: FileResult;
  /** `apply`: the disk is the proposal's base; `inPlace`: an interrupted Apply already left the result there. */
  state: 'apply' | 'inPlace';
  /** The real content to write (null: delete). */
  content: string | null;
  /** The live file before Apply (null: absent, or unknown for `inPlace`, where history keeps the stored base). */
  before: string | null;
}

/** The masked lines of every stored text of the file: none of them may be written from the proposal's side. */
function maskedLineSet(row: FileRow): Map<string, string> {
  const ml = parseMaskedLines(row.masked_lines);
  return maskedLinesOf(
    [row.base_content, ml.base],
    [row.proposed_content, ml.proposed],
    [row.merge_base_content, ml.mergeBase],
    [row.ours_content, ml.ours],
  );
}

function changedOnDisk(file: FileResult, now: string | null): StudioFailure {
  const what = now === null ? 'it no longer exists' : file.baseSha256 === null ? 'it now exists' : 'its content changed';
  return new StudioFailure(
    'Conflict',
    `${file.relPath} in ${file.root} changed since the proposal was made (${what}); nothing was written.`,
    {
      path: file.relPath,
      hint: 'Review the difference between the proposal and the file on disk, then rebase the proposal onto the current content.',
    },
  );
}

/** The real content of one file whose disk still is the base: the stored decisions replayed over the live lines. */
function overLive(db: StudioDb, id: string, file: FileResult, live: string | null, decided: Map<number, FileDecisionRows>): string | null {
  if (file.action === 'delete') return null;
  const row = loadFileRow(db, id, file.ord) as FileRow;
  const { decisions, edits } = decided.get(file.ord) ?? { decisions: {}, edits: {} };
  const hunks = JSON.parse(row.hunks_json) as Hunk[];
  const guard = maskedLineGuard(file.relPath, maskedLineSet(row));
  const outcome = resolveFile(row.base_content, row.proposed_content, hunks, decisions, edits, { live: live ?? '', guard });
  if (outcome.action === 'delete') return null;
  return outcome.action === 'write' ? outcome.content : live;
}

/**
 * The decided result of every changing file, made real from the disk. A file whose bytes still hash to the base is
 * replayed over its live lines (the masked stored copy only says where the proposal's own lines go); one that already
 * holds the result (the masked result equals the masked disk) counts as in place; anything else is a Conflict, refused
 * before any lock is taken, as Apply's own base check would refuse it under the locks.
 */
export async function realizeResult(db: StudioDb, id: string, result: ProposalResult = resultOf(db, id)): Promise<RealizedFile[]> {
  const files: RealizedFile[] = [];
  // Every file's decisions in one query, not one query of all of them per file: an import of 10,000 files spent
  // minutes here.
  let decided: Map<number, FileDecisionRows> | null = null;
  for (const file of result.files.filter((f) => f.action !== 'unchanged')) {
    const disk = await readDiskBase(file.root, file.version, file.relPath, file.target);
    const now = disk?.sha256 ?? null;
    if (now === file.baseSha256) {
      decided ??= loadDecisions(db, id);
      files.push({ file, state: 'apply', content: overLive(db, id, file, disk?.content ?? null, decided), before: disk?.content ?? null });
      continue;
    }
    const inPlace = file.action === 'delete' ? disk === null : disk !== null && maskTextForStorage(disk.content) === file.content;
    if (!inPlace) throw changedOnDisk(file, disk?.content ?? null);
    files.push({ file, state: 'inPlace', content: disk?.content ?? null, before: null });
  }
  return files;
}

/** SHA-256 of a realized file's content (null for a deletion). */
export const realSha256 = (f: RealizedFile): string | null => (f.content === null ? null : sha256Text(f.content));
