// The consolidation (Phase 2) lock of one version: status, lease holder, backoff, cooldown, and whether it is claimable now.
import type { GlobalClaim, GlobalJob, UnixTime } from '../../../shared/health';
import { Fact } from '../common/fact';
import { shortId } from '../lib/format';
import { TimeText } from './time-fact';

export interface GlobalJobViewProps {
  job: GlobalJob | null;
  claim: GlobalClaim | null;
  now: UnixTime;
}

function ClaimFact({ claim, now }: { claim: GlobalClaim | null; now: UnixTime }) {
  if (!claim)
    return (
      <Fact term="Claimable now">
        <span className="muted">unknown</span>
      </Fact>
    );
  return (
    <Fact term="Claimable now">
      <span className={claim.claimableNow ? 'text-ok' : 'text-warn'} data-testid="claimable-now" data-claimable={claim.claimableNow}>
        {claim.claimableNow ? 'Yes' : 'No'}
      </span>{' '}
      — {claim.reason}
      {claim.nextClaimAt ? (
        <>
          {' '}
          Next chance: <TimeText time={claim.nextClaimAt} now={now} />.
        </>
      ) : null}
    </Fact>
  );
}

export function GlobalJobView({ job, claim, now }: GlobalJobViewProps) {
  if (!job) {
    return (
      <div className="health-block">
        <h3>Consolidation (Phase 2)</h3>
        <p className="muted">No consolidation has run yet: the global job row does not exist.</p>
        <dl className="facts">
          <ClaimFact claim={claim} now={now} />
        </dl>
      </div>
    );
  }
  return (
    <div className="health-block" data-testid="global-job">
      <h3>Consolidation (Phase 2)</h3>
      <dl className="facts">
        <Fact term="Status">
          <span className="badge badge-small">{job.status}</span>
        </Fact>
        <Fact term="Lease holder">
          {job.workerId ? <code title={job.workerId}>{shortId(job.workerId)}</code> : <span className="muted">none</span>}
          {job.leaseUntil ? (
            <>
              {' '}
              · lease {job.leaseLive ? 'live until' : 'expired'} <TimeText time={job.leaseUntil} now={now} />
            </>
          ) : null}
        </Fact>
        <Fact term="Last run">
          <TimeText time={job.startedAt} now={now} fallback="never started" /> →{' '}
          <TimeText time={job.finishedAt} now={now} fallback="not finished" />
        </Fact>
        <Fact term="Last error">
          {job.lastError ? <span className="text-danger">{job.lastError}</span> : <span className="muted">none</span>}
        </Fact>
        <Fact term="Retry">
          {job.retryAt ? <TimeText time={job.retryAt} now={now} /> : <span className="muted">not scheduled</span>}
          {job.retryBackoffActive ? ' (backing off)' : ''} · {job.retryRemaining ?? '?'} retries left
        </Fact>
        <Fact term="Cooldown ends">
          <TimeText time={job.cooldownEndsAt} now={now} fallback="no cooldown" />
          {job.cooldownEndsAt ? (job.cooldownActive ? ' (active)' : ' (over)') : null}
        </Fact>
        <ClaimFact claim={claim} now={now} />
      </dl>
    </div>
  );
}
