// Stale findings grouped by reason and project (a heavy home has hundreds); each group's bulk fix is planned in
// stale-group-plan.ts.
import { createHash } from 'node:crypto';
import type { DoctorEntry, Finding, StaleGroup, StaleReason } from '../../../shared/doctor';

type GroupReason = StaleGroup['reason'];

/** The weightiest reason decides the group: a gone project beats gone pointers, which beat "never cited". */
const WEIGHT: GroupReason[] = ['project-gone', 'pointers-gone', 'not-cited'];

export function groupReason(reasons: readonly StaleReason[]): GroupReason {
  return WEIGHT.find((w) => reasons.some((r) => r.reason === w)) ?? 'not-cited';
}

export const staleGroupId = (reason: GroupReason, project: string | null) =>
  `sgrp-${createHash('sha256')
    .update(`stale-group\0${reason}\0${project ?? ''}`)
    .digest('hex')
    .slice(0, 12)}`;

const WHY: Record<GroupReason, string> = {
  'project-gone': 'the project folder is gone',
  'pointers-gone': 'rollout pointers lead nowhere',
  'not-cited': 'not cited for a long time',
};

function groupTitle(reason: GroupReason, project: string | null, count: number): string {
  const where = project ? `in ${project}` : 'with no project folder';
  return `${count} ${count === 1 ? 'entry' : 'entries'} ${where}: ${WHY[reason]}`;
}

/** One stale finding with the entry it is about: what grouping needs. */
export interface StaleItem {
  finding: Finding;
  entry: DoctorEntry;
  reasons: readonly StaleReason[];
}

/** The groups of the stale findings, largest first (then by reason and project), findings in report order. */
export function groupStale(items: readonly StaleItem[]): StaleGroup[] {
  const groups = new Map<string, { reason: GroupReason; project: string | null; ids: string[] }>();
  for (const { finding, entry, reasons } of items) {
    const reason = groupReason(reasons);
    const id = staleGroupId(reason, entry.cwd);
    const group = groups.get(id) ?? { reason, project: entry.cwd, ids: [] };
    group.ids.push(finding.id);
    groups.set(id, group);
  }
  return [...groups.entries()]
    .map(([id, g]) => ({
      id,
      reason: g.reason,
      project: g.project,
      title: groupTitle(g.reason, g.project, g.ids.length),
      findingIds: g.ids,
      fixDescription: `Retire all ${g.ids.length} in one proposal: each entry is removed from its file, every hunk can still be rejected on its own, and a revert brings them back.`,
    }))
    .sort(
      (a, b) =>
        b.findingIds.length - a.findingIds.length ||
        WEIGHT.indexOf(a.reason) - WEIGHT.indexOf(b.reason) ||
        (a.project ?? '').localeCompare(b.project ?? ''),
    );
}
