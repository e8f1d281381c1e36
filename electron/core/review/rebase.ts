// Rebase: merges what changed on disk into a pending proposal, file by file (three-way), keeping the decisions it did not touch.
import type { Hunk, Proposal, RebaseOutcome, RebasedFileReport } from '../../../shared/review';
import { StudioFailure } from '../platform/errors';
import type { StudioDb } from '../studio-db';
import { type DiskBase, readDiskBase, sha256Text } from './disk-base';
import {
  type FileDecisionRows,
  type FileRow,
  loadDecisions,
  loadFileRow,
  loadFileRows,
  loadProposal,
  loadProposalRow,
  type RebasedFile,
  replaceRebased,
  requirePending,
} from './proposal-rows';
import type { ThreeWay } from './three-way';
import { threeWayAsync } from './three-way-off-thread';
import { maskForStorage } from '../lint/mask-at-rest';
import { maskedLinesOf, parseMaskedLines, secretsByText, type LineSecrets } from './stored-texts';

const NOTHING_CHANGED = 'Nothing was changed: the proposal is as it was.';

/** The file on disk now, or a failure that names it and says what to do (binary, too big, not UTF-8, a symlink...). */
async function readDisk(id: string, row: FileRow): Promise<DiskBase | null> {
  try {
    return await readDiskBase(row.root, row.version, row.rel_path, row.target);
  } catch (error) {
    if (!(error instanceof StudioFailure)) throw error;
    throw new StudioFailure(error.kind, `Cannot rebase proposal ${id}: ${error.message} ${NOTHING_CHANGED}`, {
      path: row.rel_path,
      hint: `A memory file must be a regular UTF-8 text file of at most 16 MiB. Restore ${row.rel_path} (History keeps its earlier versions) and rebase again, or reject the proposal.`,
      cause: error,
      fault: error.fault,
    });
  }
}

/**
 * A stored text must still hash to its recorded SHA-256, or the three-way merge would start from the wrong base. A text
 * kept with its secrets masked (`masked` lines) cannot hash to the real file's SHA-256: it must at least be there.
 */
function stored(id: string, row: FileRow, sha: string | null, content: string | null, what: string, masked?: LineSecrets): string | null {
  if (sha === null) return null;
  if (content !== null && ((masked?.size ?? 0) > 0 || sha256Text(content) === sha)) return content;
  throw new StudioFailure(
    'Invalid',
    `Cannot rebase proposal ${id}: the ${what} of ${row.rel_path} is missing from Memory Studio's data folder or damaged, so it cannot be merged with the file on disk. ${NOTHING_CHANGED}`,
    {
      path: row.rel_path,
      hint: 'Reject this proposal and make the change again from the current file.',
    },
  );
}

/** Signatures of a hunk's changes: each run of removed/added lines of a change, or the three sides of a conflict. */
function signatures(hunk: Hunk): string[] {
  if (hunk.conflict) {
    const c = hunk.conflict;
    return [['conflict', c.absent ?? '', ...c.base.text, '\0', ...c.theirs.text, '\0', ...c.ours.text].join('\n')];
  }
  const out: string[] = [];
  let run: string[] = [];
  for (const line of [...hunk.lines, ' ']) {
    if (line.startsWith(' ')) {
      if (run.length > 0) out.push(run.join('\n'));
      run = [];
    } else run.push(line);
  }
  return out;
}

/**
 * Decisions survive on the hunks the rebase did not touch: a new hunk whose every change (or whose conflict) was already
 * in a decided hunk keeps that decision; anything the disk's changes reached starts undecided.
 */
function carryDecisions(oldHunks: readonly Hunk[], old: FileDecisionRows, newHunks: readonly Hunk[]): FileDecisionRows {
  const pool = new Map<string, Array<{ decision: NonNullable<FileDecisionRows['decisions'][string]>; edit?: string }>>();
  for (const hunk of oldHunks) {
    const decision = old.decisions[hunk.id];
    if (!decision) continue;
    for (const sig of signatures(hunk)) pool.set(sig, [...(pool.get(sig) ?? []), { decision, edit: old.edits[hunk.id] }]);
  }
  const carried: FileDecisionRows = { decisions: {}, edits: {} };
  for (const hunk of newHunks) {
    const found = signatures(hunk).map((sig) => pool.get(sig)?.shift());
    const first = found[0];
    if (!first || found.some((f) => f?.decision !== first.decision)) continue;
    carried.decisions[hunk.id] = first.decision;
    if (first.decision === 'edit' && first.edit !== undefined) carried.edits[hunk.id] = first.edit;
  }
  return carried;
}

function report(row: FileRow, merge: ThreeWay | null, kept: number): RebasedFileReport {
  const base = { ord: row.ord, version: row.version, relPath: row.rel_path };
  if (!merge)
    return {
      ...base,
      outcome: 'unchanged',
      conflicts: [],
      message: `${row.rel_path} has not changed on disk since the proposal was made.`,
    };
  const conflicts = merge.hunks.filter((h) => h.kind === 'conflict').map((h) => h.id);
  const note = merge.note ? ` ${merge.note}` : '';
  if (merge.kind === 'conflicts') {
    const n = conflicts.length;
    return {
      ...base,
      outcome: 'conflicts',
      conflicts,
      message: `${row.rel_path}: ${n} conflict${n === 1 ? '' : 's'} between the disk and the proposal need${n === 1 ? 's' : ''} a decision.${note}`,
    };
  }
  if (merge.kind === 'nothing-left')
    return {
      ...base,
      outcome: 'merged',
      conflicts,
      message: `${row.rel_path}: the disk's changes were kept; the proposal has nothing left to change here.${note}`,
    };
  const decided = kept > 0 ? ` ${kept} decision${kept === 1 ? '' : 's'} kept.` : '';
  return { ...base, outcome: 'merged', conflicts, message: `${row.rel_path}: the disk's changes were merged in cleanly.${decided}${note}` };
}

/** The rebased row of one file whose disk content is no longer its base, or null when the disk still matches. */
async function rebaseFile(
  id: string,
  row: FileRow,
  old: FileDecisionRows,
  now: number,
): Promise<{ file: RebasedFile; merge: ThreeWay } | null> {
  const ml = parseMaskedLines(row.masked_lines);
  stored(id, row, row.base_sha256, row.base_content, 'stored base', ml.base);
  const disk = await readDisk(id, row);
  if ((disk?.sha256 ?? null) === row.base_sha256) return null;
  const rebased = row.rebased_at !== null;
  // Every rebase merges from the true common ancestor: the file when proposed and the proposal's own content.
  const mergeBaseSha256 = rebased ? row.merge_base_sha256 : row.base_sha256;
  const mergeBase = rebased
    ? stored(id, row, row.merge_base_sha256, row.merge_base_content, 'merge base (the file as it was when proposed)', ml.mergeBase)
    : row.base_content;
  const ours = rebased ? row.ours_content : row.proposed_content;
  // The stored texts are masked: the disk is masked the same way before the merge, so an unchanged secret is an unchanged line.
  const theirs = maskForStorage([disk?.content ?? null]);
  const theirsText = theirs.texts[0] ?? null;
  const mergeBaseLines = rebased ? ml.mergeBase : ml.base;
  const oursLines = rebased ? ml.ours : ml.proposed;
  // Each masked line by its text, with what it held: the merged result keeps some, and the review marks them.
  const masked = maskedLinesOf([mergeBase, mergeBaseLines], [ours, oursLines], [theirsText, theirs.kinds[0]]);
  const merge = await threeWayAsync(mergeBase, theirsText, ours, masked);
  const oldHunks = JSON.parse(row.hunks_json) as Hunk[];
  const file: RebasedFile = {
    ord: row.ord,
    version: row.version,
    target: row.target,
    root: row.root,
    relPath: row.rel_path,
    baseSha256: disk?.sha256 ?? null,
    baseContent: theirsText,
    proposedContent: merge.proposed,
    hunks: merge.hunks,
    maskedLines: {
      base: theirs.kinds[0],
      proposed: secretsByText(merge.proposed, masked),
      mergeBase: mergeBaseLines,
      ours: oursLines,
    },
    rebasedAt: now,
    mergeBaseSha256,
    mergeBaseContent: mergeBase,
    oursContent: ours,
    carried: carryDecisions(oldHunks, old, merge.hunks),
  };
  return { file, merge };
}

/**
 * Three-way rebase of every file whose disk content changed since the proposal (or its last rebase): base = the file when
 * proposed, theirs = the disk now, ours = the proposal. One-sided changes are kept, overlapping ones become conflict hunks
 * to resolve; the disk becomes the new base Apply checks. All files are read and merged before any row changes.
 */
export async function rebaseProposal(db: StudioDb, id: string, now = Date.now()): Promise<RebaseOutcome> {
  requirePending(loadProposalRow(db, id));
  const rows = loadFileRows(db, id);
  const decisions = loadDecisions(db, id);
  const files: RebasedFileReport[] = [];
  const changed: RebasedFile[] = [];
  for (const row of rows) {
    const result = await rebaseFile(id, row, decisions.get(row.ord) ?? { decisions: {}, edits: {} }, now);
    if (result) changed.push(result.file);
    files.push(report(row, result?.merge ?? null, result ? Object.keys(result.file.carried.decisions).length : 0));
  }
  db.transaction(() => {
    // The proposal may have been applied or rejected while the files were being merged.
    requirePending(loadProposalRow(db, id));
    for (const file of changed) replaceRebased(db, id, file);
  });
  const proposal: Proposal = loadProposal(db, id);
  return { proposal, files };
}

/** The three texts a rebased file's conflicts refer to: the merge base, the disk at the rebase, and the proposal's own version. */
export function mergeTextsOf(db: StudioDb, id: string, ord: number): { base: string | null; theirs: string | null; ours: string | null } {
  loadProposalRow(db, id);
  const row = loadFileRow(db, id, ord);
  if (!row) throw new StudioFailure('NotFound', `Proposal ${id} has no file number ${ord}.`);
  if (row.rebased_at === null) return { base: row.base_content, theirs: row.base_content, ours: row.proposed_content };
  return { base: row.merge_base_content, theirs: row.base_content, ours: row.ours_content };
}
