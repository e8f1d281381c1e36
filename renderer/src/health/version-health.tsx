// One memory version's pipeline: where its tables live, the consolidation lock, stage-1 jobs and stage1_outputs counts.
import type { OutputStats, Phase1Claims, UnixTime, VersionHealth } from '../../../shared/health';
import { baseName } from '../lib/format';
import { GlobalJobView } from './global-job';
import { Stage1JobsView } from './stage1-jobs';
import { TimeText } from './time-fact';

export interface VersionHealthCardProps {
  health: VersionHealth;
  now: UnixTime;
  onOpenSession: (threadId: string) => void;
  versionSource: 'config' | 'default';
}

/** The numeric counters of OutputStats (the others are timestamps). */
type CountKey = { [K in keyof OutputStats]: OutputStats[K] extends number ? K : never }[keyof OutputStats];

const outputRows: ReadonlyArray<[CountKey, string]> = [
  ['total', 'Rows'],
  ['selectedForPhase2', 'Selected in the last consolidation'],
  ['eligibleForPhase2', 'Eligible for the next consolidation'],
  ['nextSelectionSize', 'Next consolidation takes (capped by config)'],
  ['withUsage', 'Used by a session at least once'],
  ['neverUsed', 'Never used'],
  ['staleByMaxUnusedDays', 'Stale (unused longer than max_unused_days)'],
  ['prunable', 'Codex deletes at the next start'],
  ['blankRawMemory', 'Blank raw memory'],
  ['blankRolloutSummary', 'Blank rollout summary'],
  ['notEnabledThread', 'Thread not enabled for memory'],
];

function Outputs({ outputs, now }: { outputs: OutputStats | null; now: UnixTime }) {
  if (!outputs) return <p className="muted">No stage1_outputs table: nothing has been extracted for this version.</p>;
  return (
    <div className="health-block" data-testid="stage1-outputs">
      <h3>stage1_outputs</h3>
      <table className="counts-table">
        <tbody>
          {outputRows.map(([key, label]) => (
            <tr key={key}>
              <th scope="row">{label}</th>
              <td className="num">{outputs[key].toLocaleString()}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">
        Newest source: <TimeText time={outputs.newestSourceUpdatedAt} now={now} fallback="none" /> · newest use:{' '}
        <TimeText time={outputs.newestUsage} now={now} fallback="none" />
      </p>
    </div>
  );
}

function whereText(health: VersionHealth): string {
  if (health.tablesIn === 'state-db') return "tables in state_5.sqlite (an older Codex build's layout)";
  if (health.tablesIn === null) return 'no memory tables found';
  return 'tables in its memory DB';
}

function Phase1({ phase1 }: { phase1: Phase1Claims | null }) {
  if (!phase1) return null;
  const { skipped } = phase1;
  const reasons: Array<[number, string]> = [
    [skipped.upToDate, 'already extracted'],
    [skipped.retryBackoff, 'waiting after a failure'],
    [skipped.retryExhausted, 'out of retries'],
    [skipped.running, 'being extracted now'],
  ];
  const shown = reasons.filter(([n]) => n > 0).map(([n, label]) => `${n.toLocaleString()} ${label}`);
  return (
    <div className="health-block" data-testid="phase1-claims">
      <h3>Phase 1 at the next session start</h3>
      <p>
        {phase1.eligible === 0
          ? 'No thread is waiting to be extracted.'
          : `Codex extracts ${phase1.nextStartClaims.toLocaleString()} of ${phase1.eligible.toLocaleString()} waiting thread${phase1.eligible === 1 ? '' : 's'} (max_rollouts_per_startup = ${phase1.perStartup}).`}
      </p>
      {shown.length > 0 ? <p className="muted small">In the window but skipped: {shown.join(', ')}.</p> : null}
    </div>
  );
}

function activeText(health: VersionHealth, versionSource: 'config' | 'default'): string {
  if (!health.active) return 'not active';
  const active = versionSource === 'default' ? 'active (Codex default)' : 'active';
  return health.db.exists ? active : `${active}, no database yet`;
}

export function VersionHealthCard({ health, now, onOpenSession, versionSource }: VersionHealthCardProps) {
  return (
    <section
      className="card version-health"
      aria-labelledby={`health-${health.version}`}
      data-testid="version-health"
      data-version={health.version}
    >
      <h2 id={`health-${health.version}`}>
        <span className="badge badge-version">{health.version}</span> {baseName(health.db.path)}
        <span
          className={`badge badge-small ${health.active ? (health.db.exists ? 'badge-ok' : 'badge-warn') : ''}`}
          title={
            versionSource === 'default' ? 'memories.version is not set in config.toml: Codex uses v2 (0.169.0 to 0.171.0 do).' : undefined
          }
        >
          {activeText(health, versionSource)}
        </span>
      </h2>
      <p className="card-sub muted">
        {whereText(health)} ·{' '}
        {health.db.exists
          ? health.db.opened
            ? `read ${health.db.mode === 'snapshot' ? 'from a snapshot (WAL in use)' : 'directly'}`
            : 'could not be opened'
          : 'file missing'}
      </p>
      {health.missingColumns.length > 0 ? (
        <p className="text-warn small">
          This DB lacks columns newer Codex builds write ({health.missingColumns.join(', ')}); those values show as unknown.
        </p>
      ) : null}
      <GlobalJobView job={health.globalJob} claim={health.globalClaim} now={now} />
      <Phase1 phase1={health.phase1} />
      <Stage1JobsView jobs={health.stage1Jobs} now={now} onOpenSession={onOpenSession} />
      <Outputs outputs={health.outputs} now={now} />
    </section>
  );
}
