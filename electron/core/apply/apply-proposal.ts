// Applies a reviewed proposal: its decided result, through the Apply engine's locks and lease, recorded in history.
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { AppliedProposal, DbChange, HistoryEntry, ProposalResult } from '../../../shared/review';
import { applyPlan } from './apply-plan';
import { recoverLeftovers, recoveryScopeOf } from './recovery';
import type { ApplyFile, ApplyPlan } from './types';
import { gateConsolidationResult } from './consolidation-gate';
import { StudioFailure } from '../platform/errors';
import { commitDbChanges, versionsOfChanges } from '../forget';
import { appliedImportTitle } from '../import/title';
import { readDiskBase } from '../review/disk-base';
import { getProposal, resultOf } from '../review/proposals';
import { markApplied } from '../history';
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
    const scope = recoveryScopeOf(home);
    await recoverLeftovers(dataDir, scope.roots, scope.options);
    throw new StudioFailure('Conflict', `Proposal "${proposal.title}" is ${proposal.status}, so it cannot be applied again.`);
  }
  const result = resultOf(db, id);
  refuseUnresolved(result);
  if (proposal.source === 'consolidation') await gateConsolidationResult(result);
  const changing = result.files.filter((f) => f.action !== 'unchanged');
  // An import's title counts what was accepted: a removal the person rejected is not "removed" in the history.
  const summary = proposal.source === 'import' ? appliedImportTitle(db, proposal, result) : proposal.title;
  // A project's AGENTS.md is no memory root of this home: the engine checks its folder by the project-file rules.
  checkRoots(home, new Set(changing.filter((f) => f.target === 'memory').map((f) => f.root)));
  // A finished-but-unrecorded Apply (killed between the renames and the history write) left files at their result:
  // those count as done, so the proposal stays appliable instead of turning into a conflict with itself.
  await recoverLeftovers(dataDir, [...new Set(changing.filter((f) => f.target === 'memory').map((f) => f.root))]);
  const plan: ApplyFile[] = [];
  const alreadyInPlace: string[] = [];
  for (const file of changing) {
    const current = (await readDiskBase(file.root, file.version, file.relPath, file.target))?.sha256 ?? null;
    const target = file.action === 'delete' ? null : file.sha256;
    if (current === target && current !== file.baseSha256) alreadyInPlace.push(file.relPath);
    else
      plan.push({
        version: file.version,
        target: file.target,
        root: file.root,
        relPath: file.relPath,
        baseSha256: file.baseSha256,
        content: file.action === 'delete' ? null : file.content,
      });
  }
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
      entry = markApplied(db, id, { summary });
    },
  });
  if (!entry) entry = markApplied(db, id, { summary });
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
