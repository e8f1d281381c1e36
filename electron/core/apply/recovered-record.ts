// Records an Apply that recovery finished exactly as the Apply would have: its Codex-DB step, history entry and status.
//
// Loaded only when a journal to record is found (recovery runs at every start, and the lean CLI commands load no
// review or history code). The caller holds the lock files of every root the journal names.
import type { DbChange, ProposalResult } from '../../../shared/review';
import { StudioFailure } from '../platform/errors';
import { commitDbChangesAt } from '../forget';
import { markApplied, type MaskedHistoryFile } from '../history';
import { loadFileRow, loadProposalRow } from '../review/proposal-rows';
import { readDiskBase, sha256Text } from '../review/disk-base';
import { resultOf } from '../review/proposals';
import { openStudioDb, type StudioDb } from '../studio-db';
import { type HeldLease, claimLease, releaseLease } from '../lease/codex-lease';
import type { Journal, JournaledHistoryFile, JournalRecord } from './journal';

/** The decided result still says what the journal applied (nobody decided or rebased meanwhile), file by file. */
function checkResult(id: string, record: JournalRecord, result: ProposalResult): void {
  const changing = result.files.filter((f) => f.action !== 'unchanged');
  const same =
    changing.length === record.files.length &&
    changing.every((f) => {
      const journaled = record.files.find((r) => r.ord === f.ord);
      return journaled?.beforeSha256 === f.baseSha256 && journaled.afterSha256 === (f.action === 'delete' ? null : f.sha256);
    });
  if (!same)
    throw new StudioFailure('Conflict', `Proposal ${id} was changed after its Apply was interrupted, so that Apply cannot be recorded.`, {
      hint: 'Its files were finished as applied; apply the proposal again to record it (files already in place count as done).',
    });
}

/**
 * The proposal's Codex-DB changes, made again under Codex's lease (a dead holder's is taken over): deleting rows and
 * disabling a thread are idempotent, so a step the killed Apply already committed changes nothing more. The lease is
 * left `pending` as after any Apply that may have changed something.
 */
async function redoDbStep(dataDir: string, db: NonNullable<JournalRecord['db']>, changes: readonly DbChange[]): Promise<void> {
  if (changes.length === 0) return;
  const held: HeldLease[] = [];
  try {
    for (const { version, dbPath, lease } of db.leases)
      if (lease !== false) held.push(await claimLease(dataDir, dbPath, version, Math.floor(Date.now() / 1000)));
    commitDbChangesAt(db.paths, changes, { recovering: true });
  } finally {
    for (const lease of held.reverse()) await releaseLease(lease, true).catch(() => undefined);
  }
}

function changedSince(id: string, relPath: string): StudioFailure {
  return new StudioFailure(
    'Conflict',
    `${relPath} of proposal ${id} changed after its Apply was interrupted, so that Apply cannot be recorded.`,
    {
      path: relPath,
      hint: 'Apply the proposal again to record it (files already in place count as done), or rebase it.',
    },
  );
}

/**
 * The entry's files with their texts: those journaled without them (no secret in either) are read back, the base as
 * the proposal stores it and the file as Apply wrote it, each checked against the real SHA-256 Apply recorded.
 */
async function historyTexts(studio: StudioDb, id: string, history: readonly JournaledHistoryFile[]): Promise<MaskedHistoryFile[]> {
  const files: MaskedHistoryFile[] = [];
  for (const { ord, stored, ...file } of history) {
    if (!stored) {
      files.push(file);
      continue;
    }
    const before = file.beforeSha256 === null ? null : (loadFileRow(studio, id, ord)?.base_content ?? null);
    const disk = file.afterSha256 === null ? null : await readDiskBase(file.root, file.version, file.relPath, file.target);
    const after = disk?.content ?? null;
    if ((before === null ? null : sha256Text(before)) !== file.beforeSha256) throw changedSince(id, file.relPath);
    if ((after === null ? null : sha256Text(after)) !== file.afterSha256) throw changedSince(id, file.relPath);
    files.push({ ...file, before, after });
  }
  return files;
}

/** The proposal's status; null when this Studio DB does not have it (nothing anybody could record). */
function proposalStatus(studio: StudioDb, id: string): string | null {
  try {
    return loadProposalRow(studio, id).status;
  } catch (error) {
    if (error instanceof StudioFailure && error.kind === 'NotFound') return null;
    throw error;
  }
}

/**
 * Records the finished Apply of `journal` (its files are at their proposed content): the Codex-DB step again, then the
 * history entry and status `applied` in one transaction, as `applyProposal` does. 'nothing' when the killed Apply got
 * as far as recording it (or the Studio DB no longer has the proposal). Throws when it cannot (the Studio DB unwritable, Codex holding its lease): the journal is
 * then kept, and the next recovery tries again.
 */
export async function recordRecovered(dataDir: string, journal: Journal): Promise<'recorded' | 'nothing'> {
  const record = journal.record;
  if (!record) return 'nothing';
  const studio = openStudioDb(dataDir);
  try {
    if (proposalStatus(studio, journal.id) !== 'pending') return 'nothing';
    const result = resultOf(studio, journal.id, { content: false });
    checkResult(journal.id, record, result);
    if (record.db) await redoDbStep(dataDir, record.db, result.dbChanges);
    const files = record.history ? await historyTexts(studio, journal.id, record.history) : undefined;
    markApplied(studio, journal.id, { summary: record.summary, ...(files ? { files } : {}) });
    return 'recorded';
  } finally {
    studio.close();
  }
}
