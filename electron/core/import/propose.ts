// The import as a reviewed proposal (source `import`): every target file, the consolidation enqueue, and provenance.
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { waitsForCwd, type ImportOutcome, type ImportPlan, type ImportPlanInput } from '../../../shared/import';
import type { DbChangeInput, Proposal } from '../../../shared/review';
import { memoryDbName } from '../codex/constants';
import { StudioFailure } from '../platform/errors';
import { IMPORT_KINDS } from '../forget/kinds';
import { createProposal } from '../review';
import type { StudioDb } from '../studio-db';
import type { ImportEnv } from './discover';
import { earlierImportsOf } from './earlier';
import { buildPlan } from './plan';
import { insertProvenance } from '../studio-db/provenance';
import { importTitle, TOOL_NAMES } from './title';

/** Refuses while any finding of a file that would be imported has no choice, naming the first one. */
function refuseUnresolved(plan: ImportPlan): void {
  if (plan.unresolvedFindings === 0) return;
  for (const p of plan.projects) {
    if (!p.included || p.status !== 'importable') continue;
    for (const f of p.files) {
      const open = f.status === 'importable' ? f.findings.find((x) => x.action === null) : undefined;
      if (!open) continue;
      throw new StudioFailure(
        'Invalid',
        `${f.sourcePath} line ${open.line} has a possible secret (${open.rule}, ${open.preview}) with no choice yet, so it cannot be imported (${plan.unresolvedFindings} unresolved in all).`,
        {
          path: f.sourcePath,
          hint: 'Choose "redact" or "skip the file" for every finding (the CLI: --redact-secrets or --skip-secret-files), then propose again.',
        },
      );
    }
  }
}

export function enqueueChanges(home: HomeInfo, versions: readonly MemoryVersion[]): DbChangeInput[] {
  return versions
    .filter((v) => home.roots.find((r) => r.version === v)?.dbExists)
    .map((v) => ({
      db: memoryDbName(v),
      description: `Enqueue consolidation in the ${v} memory DB, as Codex's import does: the global job is left pending, so Codex folds the import in on its next run.`,
      sqlKind: IMPORT_KINDS.enqueueConsolidation,
      params: { version: v },
    }));
}

/** The roots whose memory DB the proposal enqueues consolidation in, as core stored its DB changes. */
function enqueuedRoots(proposal: Proposal): MemoryVersion[] {
  return proposal.dbChanges.flatMap((c) => (c.version && c.sqlKind === IMPORT_KINDS.enqueueConsolidation ? [c.version] : []));
}

export async function proposeImport(db: StudioDb, home: HomeInfo, input: ImportPlanInput, deps: ImportEnv = {}): Promise<ImportOutcome> {
  const { plan, writes } = await buildPlan(input, home, { earlier: earlierImportsOf(db), ...deps });
  refuseUnresolved(plan);
  const summary = plan.writes;
  // Projects skipped for want of a folder write nothing: said in both outcomes, so a partial import never hides them.
  const waitingForCwd = plan.projects.filter(waitsForCwd).map((p) => p.key);
  if (writes.length === 0) {
    const message =
      waitingForCwd.length > 0
        ? `Nothing to import yet: no project folder (cwd) is known here for ${waitingForCwd.join(', ')}; give each its folder, then import again.`
        : `Nothing to import: the targets already hold exactly what ${TOOL_NAMES[plan.from]} has.`;
    return { proposal: null, nothingToImport: true, message, writes: [], enqueue: [], waitingForCwd };
  }
  const versions = [...new Set(writes.map((w) => w.version))].sort();
  const dbChanges = enqueueChanges(home, versions);
  const proposal = await createProposal(db, {
    title: importTitle(
      TOOL_NAMES[plan.from],
      writes.map((w) => ({ relPath: w.relPath, action: w.content === null ? 'delete' : 'write', imported: w.provenance !== null })),
    ),
    source: 'import',
    files: writes.map((w) => ({ version: w.version, root: w.root, relPath: w.relPath, proposedContent: w.content })),
    dbChanges,
    // One transaction: a proposal never exists without the provenance its history entry shows.
    afterInsert: (tx, id) =>
      insertProvenance(
        tx,
        id,
        writes.flatMap((w) => (w.provenance ? [w.provenance] : [])),
      ),
  });
  const enqueue = enqueuedRoots(proposal);
  const message = `Proposed ${summary.length} change${summary.length === 1 ? '' : 's'} in ${versions.join(' and ')}; review and apply it${enqueue.length ? ' (consolidation is enqueued when applied)' : ''}.`;
  return { proposal, nothingToImport: false, message, writes: summary, enqueue, lint: plan.lint ?? [], waitingForCwd };
}
