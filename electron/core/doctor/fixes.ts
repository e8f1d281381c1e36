// Every doctor fix as a reviewed proposal: merge a duplicate cluster, retire an entry, promote into AGENTS.md, forget repeats.
import type { DoctorReport, Finding, FixAction } from '../../../shared/doctor';
import { FIX_ID, STALE_GROUP_ID } from '../../../shared/doctor';
import type { HomeInfo } from '../../../shared/domain';
import type { Proposal } from '../../../shared/review';
import { StudioFailure } from '../platform/errors';
import { planForgetMany } from '../forget';
import { createProposal } from '../review';
import type { StudioDb } from '../studio-db';
import { runTask } from '../runtime/pool';
import { quote } from './finding-ids';
import { gone, type FixPlan, type FixPlanInput, type PromoteInput } from './fix-plans';
import { runDoctor, type DoctorRun } from './report';

export { readFileState, type PromoteInput } from './fix-plans';

export interface FixContext {
  db: StudioDb;
  home: HomeInfo;
  now?: number;
  usage?: DoctorRun['usage'];
}

async function forgetRepeats(ctx: FixContext, plan: FixPlan & { kind: 'forget' }): Promise<Proposal> {
  const { plans, skipped } = await planForgetMany(ctx.home, plan.threadIds);
  if (plans.length === 0)
    throw new StudioFailure(
      'Invalid',
      `None of the ${plan.memberCount} repeated sessions can be forgotten: ${skipped[0]?.error.message ?? 'Codex knows none of them.'}`,
    );
  const note = `Forgets ${plans.length} session${plans.length === 1 ? '' : 's'} whose raw memory repeats ${quote(plan.keptTitle, 60)}, as Codex's own forget does; the first one stays.${skipped.length > 0 ? ` ${skipped.length} were skipped (${skipped[0]?.error.message})` : ''}`;
  return createProposal(ctx.db, {
    title: `Doctor: forget ${plans.length} repeats of ${quote(plan.keptTitle, 60)}`,
    source: 'doctor',
    files: [],
    dbChanges: plans.flatMap((p) => p.changes),
    note,
    now: ctx.now,
  });
}

/** The plan worked out off the main loop, then made a pending proposal here (the Studio DB is this thread's). */
async function propose(ctx: FixContext, input: FixPlanInput): Promise<Proposal> {
  const plan = await runTask('doctor-fix-plan', input);
  if (plan.kind === 'forget') return forgetRepeats(ctx, plan);
  return createProposal(ctx.db, { title: plan.title, note: plan.note, files: plan.files, source: 'doctor', now: ctx.now });
}

/** The finding as the doctor reports it now (it runs again): NotFound when the memory it was about changed. */
export async function findFinding(ctx: FixContext, findingId: string, options: DoctorRun = {}, report?: DoctorReport): Promise<Finding> {
  const current = report ?? (await runDoctor(ctx.home, { ...options, now: ctx.now ?? options.now, usage: ctx.usage ?? options.usage }));
  const finding = current.findings.find((f) => f.id === findingId);
  if (!finding) throw gone(`Finding ${findingId}`, ctx.home);
  return finding;
}

/** `doctor --fix ID`: the doctor runs again (the finding must still be there), then the fix becomes a pending proposal. */
export async function proposeFix(ctx: FixContext, fixId: string, options: DoctorRun & { project?: string } = {}): Promise<Proposal> {
  if (!FIX_ID.test(fixId))
    throw new StudioFailure('Invalid', `"${fixId}" is not a fix id.`, {
      hint: 'Fix ids look like dup-1a2b3c4d5e6f.merge; the doctor lists them with each finding.',
    });
  const [findingId, action] = fixId.split('.') as [string, FixAction];
  const report = await runDoctor(ctx.home, { ...options, now: ctx.now ?? options.now, usage: ctx.usage ?? options.usage });
  const finding = await findFinding(ctx, findingId, options, report);
  if (!finding.fixes.some((f) => f.id === fixId)) {
    throw new StudioFailure(
      'Invalid',
      `Finding ${findingId} offers no "${action}" fix; it offers ${finding.fixes.map((f) => f.id).join(', ') || 'none'}.`,
    );
  }
  const cwds = report.entries.map((e): [string, string | null] => [e.id, e.cwd]);
  return propose(ctx, { kind: 'fix', home: ctx.home, finding, action, project: options.project, cwds, now: ctx.now ?? Date.now() });
}

/** `promote`: one entry into its project's AGENTS.md, the entry removed from memory in the same proposal. */
export async function proposePromotion(ctx: FixContext, input: PromoteInput): Promise<Proposal> {
  return propose(ctx, { kind: 'promote', home: ctx.home, promote: input, now: ctx.now ?? Date.now() });
}

/** `doctor --fix sgrp-…`: the doctor runs again (the group must still be there), then every entry of it is retired in one proposal. */
export async function proposeGroupFix(ctx: FixContext, groupId: string, options: DoctorRun = {}): Promise<Proposal> {
  if (!STALE_GROUP_ID.test(groupId))
    throw new StudioFailure('Invalid', `"${groupId}" is not a stale group id.`, {
      hint: 'Stale group ids look like sgrp-1a2b3c4d5e6f; the doctor lists them with each group.',
    });
  const report = await runDoctor(ctx.home, { ...options, now: ctx.now ?? options.now, usage: ctx.usage ?? options.usage });
  const group = report.staleGroups?.find((g) => g.id === groupId);
  if (!group) throw gone(`Stale group ${groupId}`, ctx.home);
  const ids = new Set(group.findingIds);
  const findings = report.findings.filter((f) => ids.has(f.id));
  const plan = await runTask('doctor-group-plan', { home: ctx.home, group, findings });
  if (plan.files.length === 0) throw gone(`Stale group ${groupId}`, ctx.home);
  return createProposal(ctx.db, { title: plan.title, note: plan.note, files: plan.files, source: 'doctor', now: ctx.now });
}
