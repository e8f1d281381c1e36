// Stale findings by reason and project: one card per group with its count, the findings one click away, and the
// group's bulk fix (one proposal retiring every entry of it, reviewed as any other).
import { useState } from 'react';
import type { Finding, StaleGroup } from '../../../shared/doctor';
import { toStudioError } from '../api/studio-request-error';
import { useStudioMutation } from '../api/studio-query';
import { ErrorPanel } from '../common/error-panel';
import { FindingCard, ShowMore, type FindingContext } from './finding-card';

/** Findings shown at first in an expanded group. */
const SHOWN = 40;

const REASON_LABELS: Record<StaleGroup['reason'], string> = {
  'project-gone': 'Project gone',
  'pointers-gone': 'Pointers gone',
  'not-cited': 'Never cited',
};

export interface StaleGroupsProps extends FindingContext {
  groups: readonly StaleGroup[];
  findings: ReadonlyMap<string, Finding>;
}

function GroupCard({ group, ...props }: Omit<StaleGroupsProps, 'groups'> & { group: StaleGroup }) {
  const [open, setOpen] = useState(false);
  const [limit, setLimit] = useState(SHOWN);
  const fix = useStudioMutation('doctor.fixGroup');
  const members = group.findingIds.flatMap((id) => props.findings.get(id) ?? []);
  const count = members.length;
  const listId = `stale-group-${group.id}`;
  return (
    <li className="card doctor-finding doctor-stale-group" data-testid="stale-group" data-id={group.id} data-reason={group.reason}>
      <h3>
        <span className="badge badge-small doctor-kind doctor-kind-stale">{REASON_LABELS[group.reason]}</span>
        <span className="doctor-title" title={group.project ?? undefined}>
          {group.title}
        </span>
        <span className="badge badge-small" data-testid="stale-group-count">
          {count}
        </span>
      </h3>
      <div className="doctor-fixes">
        <button
          type="button"
          className="button button-primary"
          data-testid="stale-group-fix"
          title={group.fixDescription}
          disabled={fix.isPending || count === 0}
          onClick={() => fix.mutate({ ...props.options, groupId: group.id }, { onSuccess: (p) => props.onOpenProposal(p.id) })}
        >
          Retire all {count}
        </button>
        <button
          type="button"
          className="button"
          data-testid="stale-group-toggle"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide the findings' : `Show the ${count} findings`}
        </button>
        {fix.isPending ? (
          <span className="muted small" role="status">
            Making one proposal for the {count} entries…
          </span>
        ) : null}
      </div>
      <p className="small muted">{group.fixDescription}</p>
      {fix.error ? <ErrorPanel compact title="The bulk fix could not be proposed" error={toStudioError(fix.error)} /> : null}
      {open ? (
        <ul id={listId} className="doctor-findings doctor-group-findings" data-testid="stale-group-findings">
          {members.slice(0, limit).map((f) => (
            <FindingCard key={f.id} finding={f} {...props} />
          ))}
          {count > limit ? (
            <li>
              <ShowMore limit={limit} total={count} onMore={setLimit} />
            </li>
          ) : null}
        </ul>
      ) : null}
    </li>
  );
}

export function StaleGroups({ groups, ...props }: StaleGroupsProps) {
  if (groups.length === 0) return null;
  return (
    <ul className="doctor-findings" data-testid="stale-groups" aria-label="Stale findings by reason and project">
      {groups.map((g) => (
        <GroupCard key={g.id} group={g} {...props} />
      ))}
    </ul>
  );
}
