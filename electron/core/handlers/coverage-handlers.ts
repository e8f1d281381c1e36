// Handlers for `coverage.*`: the coverage ledger of Codex's memory pipeline (read only), and its repairs as proposals.
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import { planReclaim, planRetry, type RepairPlan } from '../forget';
import { createProposal, getProposal, pendingWithDbChange } from '../review';
import { runTask } from '../runtime/pool';
import type { AreaHandlers, HandlerContext } from './context';

/** The version a repair concerns: the one asked for, else the one Codex writes (as the ledger's default). */
function versionOf(home: HomeInfo, version: MemoryVersion | undefined): MemoryVersion {
  return version ?? home.config.memories.version;
}

const nowSec = () => Math.floor(Date.now() / 1000);

export function coverageHandlers(ctx: HandlerContext): AreaHandlers<'coverage'> {
  return {
    // Codex's DBs are read synchronously and MEMORY.md is scanned whole (up to a second on a heavy home): on a worker.
    'coverage.get': async (input, request) => runTask('coverage', { home: await ctx.home(), input }, { signal: request?.signal }),
    // Read only until applied: the row before and after is shown, and review.apply swaps it if Codex has not touched it.
    'coverage.retry': async ({ version, threadId }) => {
      const home = await ctx.home();
      return proposeRepair(ctx, await planRetry(home, versionOf(home, version), threadId, nowSec()));
    },
    'coverage.reclaim': async ({ version }) => {
      const home = await ctx.home();
      return proposeRepair(ctx, await planReclaim(home, versionOf(home, version), nowSec()));
    },
  };
}

/**
 * The repair as a proposal; the same repair of the same row, still pending and planned from the same row, is that
 * proposal again (a second click must not leave two, the second of which would conflict once the first is applied).
 */
async function proposeRepair(ctx: HandlerContext, plan: RepairPlan) {
  const params = plan.change.params as { kind: string; jobKey: string; before: unknown };
  const db = ctx.studioDb();
  const pending = pendingWithDbChange(db, {
    db: plan.change.db,
    sqlKind: plan.change.sqlKind,
    match: { kind: params.kind, jobKey: params.jobKey },
  });
  if (pending) {
    const existing = getProposal(db, pending);
    const same = existing.dbChanges.some(
      (c) => JSON.stringify((c.params as { before?: unknown }).before) === JSON.stringify(params.before),
    );
    if (same) return existing;
  }
  return createProposal(db, {
    title: plan.title,
    // A repair of Codex's pipeline, proposed by Memory Studio itself, as the doctor's fixes are.
    source: 'doctor',
    files: [],
    dbChanges: [plan.change],
    note: "Applying it changes one row of Codex's jobs table, only if Codex has not changed that row since; revert it from the history.",
  });
}
