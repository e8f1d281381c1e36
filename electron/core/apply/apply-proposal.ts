// Applies a reviewed proposal: its decided result, through the Apply engine's locks and lease, recorded in history.
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { AppliedProposal, DbChange, HistoryEntry, ProposalResult } from '../../../shared/review';
import { applyPlan } from './apply-plan';
import { recoverLeftovers, recoveryScopeOf } from './recovery';
import type { JournalRecord } from './journal';
import type { ApplyFile, ApplyPlan } from './types';
import { isMemoryFile } from './prepare';
import { StudioFailure } from '../platform/errors';
import { turnClock } from '../platform/turn-clock';
import { commitDbChanges, dbChangePaths, lockedVersionsOfChanges, versionsOfChanges } from '../forget';
import { appliedImportTitle } from '../import/title';
import { getProposal, resultOf } from '../review/proposals';
import { type RealizedFile, realizeResult } from '../review/realize';
import { loadFileRow } from '../review/proposal-rows';
import { listHistory, maskHistoryFileAsync, markApplied, type MaskedHistoryFile } from '../history';
import type { Coordination } from '../service/coordination';
import type { StudioDb } from '../studio-db';

/** The proposal's roots must be this home's roots: a proposal made against another home is refused. */
function checkRoots(home: HomeInfo, roots: Iterable<string>): void {
  // A root of this home that does not exist yet is fine: an import into a new version creates it under Apply's locks.
  const known = new Set(home.roots.map((r) => r.path));
  for (const root of roots) {
    if (!known.has(root))
      throw new StudioFailure('Invalid', `This proposal targets ${root}, which is not a memory folder of ${home.codexHome}.`, {
        hint: 'Open the Codex home it was made for, or reject it.',
      });
  }
}

/** A conflict hunk without a resolution stops Apply before any lock is taken: nothing is written over the disk's version. */
function refuseUnresolved(result: ProposalResult): void {
  const open = result.files.filter((f) => f.unresolvedHunkIds.length > 0);
  if (open.length === 0) return;
  const count = open.reduce((n, f) => n + f.unresolvedHunkIds.length, 0);
  const where = open.map((f) => `${f.relPath} (${f.unresolvedHunkIds.join(', ')})`).join('; ');
  throw new StudioFailure(
    'Conflict',
    `${count} conflict${count === 1 ? '' : 's'} between the disk and the proposal ${count === 1 ? 'is' : 'are'} not resolved yet: ${where}. Nothing was written.`,
    {
      path: open[0]?.relPath,
      hint: "Resolve each conflict hunk: keep the disk's lines (theirs), take the proposal's (ours), both, or write the lines by hand; then apply again.",
    },
  );
}

/**
 * What recovery needs to record this Apply as it would: the entry's files exactly as it records them (masked texts,
 * real hashes), and the decided result by hash (to see it is still the one applied); the DB step's files and leases.
 */
function recordOf(
  home: HomeInfo,
  summary: string,
  result: ProposalResult,
  plan: ApplyPlan,
  realized: readonly RealizedFile[],
  masked: readonly MaskedHistoryFile[],
): JournalRecord {
  const files = result.files
    .filter((f) => f.action !== 'unchanged')
    .map((f) => ({ ord: f.ord, beforeSha256: f.baseSha256, afterSha256: f.action === 'delete' ? null : f.sha256 }));
  // A text without a secret is its stored base or the file written: recovery reads those back instead.
  const history = masked.map((f, i) => {
    const ord = realized[i]?.file.ord ?? -1;
    return f.maskedLines === null && f.secretsRemoved === 0
      ? { ...f, ord, before: null, after: null, stored: true as const }
      : { ...f, ord };
  });
  if (result.dbChanges.length === 0 || !plan.db) return { summary, files, history };
  const leases = plan.db.versions.flatMap(({ version, root, lease }) => {
    const dbPath = plan.dbPaths[version];
    return dbPath ? [{ version, root, dbPath, ...(lease === false ? { lease } : {}) }] : [];
  });
  return { summary, files, history, db: { paths: dbChangePaths(home, result.dbChanges), leases } };
}

/** The history entry of an applied proposal, for the message that says it cannot be applied again. */
function appliedEntryOf(db: StudioDb, id: string): string {
  const entry = listHistory(db).find((e) => e.proposalId === id);
  return entry ? ` (history entry ${entry.id})` : '';
}

/**
 * Recorded while the locks are held; a failure (the Studio DB cannot be written) says that the files are in place, and
 * the Apply's journal, kept, lets recovery record it later.
 */
function recordNow(db: StudioDb, id: string, summary: string, files: MaskedHistoryFile[]): HistoryEntry {
  try {
    return markApplied(db, id, { summary, files });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new StudioFailure(
      'Internal',
      `The files of "${summary}" were written, but its history entry could not be recorded: ${why}. Memory Studio records it by itself at its next start or Apply, once the Studio DB can be written again; do not apply it again.`,
      { hint: 'Free some disk space in the data folder if it is full; then restart Memory Studio or run any command.', cause: error },
    );
  }
}

/** `coordination` is the service's (or the CLI command's): a run's held lease is borrowed, the settle announced, our writes noted. */
export async function applyProposal(
  db: StudioDb,
  home: HomeInfo,
  dataDir: string,
  id: string,
  coordination: Coordination,
): Promise<AppliedProposal> {
  // What a killed Apply left is put right first: finished (and recorded) or undone, its lease handed back.
  const scope = recoveryScopeOf(home);
  await recoverLeftovers(dataDir, scope.roots, { ...scope.options, noteWrites: (files) => coordination.ownWrites.note(files) });
  const proposal = getProposal(db, id);
  if (proposal.status !== 'pending')
    throw new StudioFailure(
      'Conflict',
      `Proposal "${proposal.title}" is ${proposal.status}${proposal.status === 'applied' ? appliedEntryOf(db, id) : ''}, so it cannot be applied again.`,
    );
  // The stored texts are masked: the result is replayed over the live files (realize.ts), which also finds the files
  // a finished-but-unrecorded Apply (from before recovery recorded them) already put at their result.
  const result = resultOf(db, id);
  refuseUnresolved(result);
  // A project's AGENTS.md or an agent's configuration is no memory root of this home: the engine checks its folder by
  // the project-file rules.
  const memoryRoots = new Set(result.files.filter((f) => f.action !== 'unchanged' && f.target === 'memory').map((f) => f.root));
  checkRoots(home, memoryRoots);
  const realized = await realizeResult(db, id, result);
  // The gate loads the consolidation's validators (~11 ms): only a consolidation's Apply needs them.
  if (proposal.source === 'consolidation') {
    const { gateConsolidationResult } = await import('./consolidation-gate.js');
    await gateConsolidationResult(realResult(result, realized));
  }
  // An import's title counts what was accepted: a removal the person rejected is not "removed" in the history.
  const summary = proposal.source === 'import' ? appliedImportTitle(db, proposal, result) : proposal.title;
  const files: ApplyFile[] = realized
    .filter((f) => f.state === 'apply')
    .map(({ file, content }) => ({
      version: file.version,
      target: file.target,
      root: file.root,
      relPath: file.relPath,
      baseSha256: file.baseSha256,
      content,
    }));
  const alreadyInPlace = realized.filter((f) => f.state === 'inPlace').map((f) => f.file.relPath);
  const history = await historyFiles(db, id, realized);
  const plan = planOf(home, id, files, result.dbChanges);
  let entry: HistoryEntry | undefined;
  let lease: AppliedProposal['lease'] = [];
  if (files.length === 0 && !plan.db) {
    // Every file is at its result already (an earlier Apply finished without its record, or the same edit made by
    // hand): nothing to write, so the proposal is recorded as applied as it stands (no journal: a failure is final).
    entry = markApplied(db, id, { summary, files: history });
  } else {
    // Told before the first rename: the watcher may see a renamed file before Apply finishes (fsyncs take time under
    // load), and our own writes must never show up as 'external'. If Apply fails, the files go back to their base,
    // which the watcher then sees as no change at all.
    coordination.ownWrites.note(files.filter(isMemoryFile).map((f) => ({ root: f.root, relPath: f.relPath, content: f.content })));
    const outcome = await applyPlan(
      { ...plan, record: recordOf(home, summary, result, plan, realized, history) },
      {
        dataDir,
        borrowLease: (dbPath) => coordination.leases.borrowable(dbPath),
        commitDb: result.dbChanges.length > 0 ? () => commitDbChanges(home, result.dbChanges) : undefined,
        // Recorded while every lock is still held: nothing can slip in between the files landing and the history.
        onCommitted: () => {
          entry = recordNow(db, id, summary, history);
        },
      },
    );
    lease = outcome.lease;
  }
  if (!entry) entry = markApplied(db, id, { summary, files: history });
  coordination.settled.announce(id, 'applied');
  return {
    entry,
    written: files.map((f) => ({
      version: f.version,
      target: f.target ?? 'memory',
      root: f.root,
      relPath: f.relPath,
      action: f.content === null ? 'delete' : 'write',
    })),
    alreadyInPlace,
    lease,
  };
}

/** The result with each changing file's real content, as the consolidation gate validates what lands. */
function realResult(result: ProposalResult, realized: readonly RealizedFile[]): ProposalResult {
  const real = new Map(realized.map((f) => [f.file.ord, f.content]));
  return { ...result, files: result.files.map((f) => (real.has(f.ord) ? { ...f, content: real.get(f.ord) ?? null } : f)) };
}

/**
 * What the history entry records, masked here, before the locks are taken (a consolidation's texts are megabytes): the
 * live file before and what was written. A file already in place has no live "before" any more: its stored base (masked, with the real SHA-256) stands in.
 */
async function historyFiles(db: StudioDb, id: string, realized: readonly RealizedFile[]): Promise<MaskedHistoryFile[]> {
  const out: MaskedHistoryFile[] = [];
  const clock = turnClock(16);
  for (const { file, state, content, before } of realized) {
    out.push(
      await maskHistoryFileAsync({
        version: file.version,
        target: file.target,
        root: file.root,
        relPath: file.relPath,
        beforeContent: state === 'apply' ? before : (loadFileRow(db, id, file.ord)?.base_content ?? null),
        beforeSha256: file.baseSha256,
        afterContent: content,
      }),
    );
    // Thousands of small files (a consolidation of every rollout summary) are scanned here: the app's other requests
    // get a turn every 16 ms of it.
    if (clock.due()) await clock.turn();
  }
  return out;
}

/** Every version touched by a file or a DB change names its memory DB: the engine coordinates with Codex's lease there. */
function planOf(home: HomeInfo, id: string, files: ApplyFile[], dbChanges: readonly DbChange[]): ApplyPlan {
  // A repair's root is locked like any other (so no recovery or other Apply can finish it behind its back), but it
  // takes no lease: its guarded swap is Codex's own protocol, and a reclaim must not claim the job it mends.
  const leased = new Set(versionsOfChanges(dbChanges));
  const dbVersions = lockedVersionsOfChanges(dbChanges);
  const touched = new Set<MemoryVersion>([...files.filter(isMemoryFile).map((f) => f.version), ...dbVersions]);
  const dbPaths = Object.fromEntries(home.roots.filter((r) => touched.has(r.version)).map((r) => [r.version, r.dbPath]));
  const memoryRoots = home.roots.map((r) => r.path);
  if (dbChanges.length === 0) return { id, files, dbPaths, memoryRoots };
  const versions = dbVersions.map((version) => {
    const root = home.roots.find((r) => r.version === version);
    if (!root)
      throw new StudioFailure(
        'Invalid',
        `This proposal changes the ${version} memory DB, but ${home.codexHome} has no ${version} memory folder.`,
      );
    return leased.has(version) ? { version, root: root.path } : { version, root: root.path, lease: false as const };
  });
  return { id, files, dbPaths, memoryRoots, db: { versions } };
}
