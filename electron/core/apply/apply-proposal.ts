// Applies a reviewed proposal: its decided result, through the Apply engine's locks and lease, recorded in history.
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { AppliedProposal, DbChange, HistoryEntry, ProposalResult } from '../../../shared/review';
import { applyPlan } from './apply-plan';
import { recoverLeftovers } from './recovery';
import type { ApplyFile, ApplyPlan } from './types';
import { gateConsolidationResult } from './consolidation-gate';
import { StudioFailure } from '../platform/errors';
import { commitDbChanges, versionsOfChanges } from '../forget';
import { appliedImportTitle } from '../import/title';
import { getProposal, resultOf } from '../review/proposals';
import { type RealizedFile, realizeResult } from '../review/realize';
import { loadFileRow } from '../review/proposal-rows';
import { maskHistoryFile, markApplied, type MaskedHistoryFile } from '../history';
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

/** `coordination` is the service's (or the CLI command's): a run's held lease is borrowed, the settle announced, our writes noted. */
export async function applyProposal(
  db: StudioDb,
  home: HomeInfo,
  dataDir: string,
  id: string,
  coordination: Coordination,
): Promise<AppliedProposal> {
  const proposal = getProposal(db, id);
  if (proposal.status !== 'pending') {
    // An Apply killed after its history entry still left a lock, temp files or Codex's lease: clean up all the same.
    await recoverLeftovers(
      dataDir,
      home.roots.filter((r) => r.exists).map((r) => r.path),
    );
    throw new StudioFailure('Conflict', `Proposal "${proposal.title}" is ${proposal.status}, so it cannot be applied again.`);
  }
  // The stored texts are masked: the result is replayed over the live files (realize.ts), which also finds the files
  // a finished-but-unrecorded Apply (killed between the renames and the history write) already put at their result.
  const result = resultOf(db, id);
  refuseUnresolved(result);
  // A project's AGENTS.md is no memory root of this home: the engine checks its folder by the project-file rules.
  const memoryRoots = new Set(result.files.filter((f) => f.action !== 'unchanged' && f.target === 'memory').map((f) => f.root));
  checkRoots(home, memoryRoots);
  await recoverLeftovers(dataDir, [...memoryRoots]);
  const realized = await realizeResult(db, id, result);
  if (proposal.source === 'consolidation') await gateConsolidationResult(realResult(result, realized));
  // An import's title counts what was accepted: a removal the person rejected is not "removed" in the history.
  const summary = proposal.source === 'import' ? appliedImportTitle(db, proposal, result) : proposal.title;
  const plan: ApplyFile[] = realized
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
  const history = historyFiles(db, id, realized);
  let entry: HistoryEntry | undefined;
  // Told before the first rename: the watcher may see a renamed file before Apply finishes (fsyncs take time under
  // load), and our own writes must never show up as 'external'. If Apply fails, the files go back to their base,
  // which the watcher then sees as no change at all.
  coordination.ownWrites.note(
    plan.filter((f) => f.target !== 'project').map((f) => ({ root: f.root, relPath: f.relPath, content: f.content })),
  );
  const outcome = await applyPlan(planOf(home, id, plan, result.dbChanges), {
    dataDir,
    borrowLease: (dbPath) => coordination.leases.borrowable(dbPath),
    commitDb: result.dbChanges.length > 0 ? () => commitDbChanges(home, result.dbChanges) : undefined,
    // Recorded while every lock is still held: nothing can slip in between the files landing and the history.
    onCommitted: () => {
      entry = markApplied(db, id, { summary, files: history });
    },
  });
  if (!entry) entry = markApplied(db, id, { summary, files: history });
  coordination.settled.announce(id, 'applied');
  return {
    entry,
    written: plan.map((f) => ({
      version: f.version,
      target: f.target ?? 'memory',
      root: f.root,
      relPath: f.relPath,
      action: f.content === null ? 'delete' : 'write',
    })),
    alreadyInPlace,
    lease: outcome.lease,
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
function historyFiles(db: StudioDb, id: string, realized: readonly RealizedFile[]): MaskedHistoryFile[] {
  return realized.map(({ file, state, content, before }) =>
    maskHistoryFile({
      version: file.version,
      target: file.target,
      root: file.root,
      relPath: file.relPath,
      beforeContent: state === 'apply' ? before : (loadFileRow(db, id, file.ord)?.base_content ?? null),
      beforeSha256: file.baseSha256,
      afterContent: content,
    }),
  );
}

/** Every version touched by a file or a DB change names its memory DB: the engine coordinates with Codex's lease there. */
function planOf(home: HomeInfo, id: string, files: ApplyFile[], dbChanges: readonly DbChange[]): ApplyPlan {
  const dbVersions = versionsOfChanges(dbChanges);
  const touched = new Set<MemoryVersion>([...files.filter((f) => f.target !== 'project').map((f) => f.version), ...dbVersions]);
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
    return { version, root: root.path };
  });
  return { id, files, dbPaths, memoryRoots, db: { versions } };
}
