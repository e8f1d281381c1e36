// What a run would consolidate now: the selection, notes, resources, imports, hand edits, tokens and the lease.
import { useState, type ReactNode } from 'react';
import type { InputPreview, InputSecret, LeaseView, RunStatus } from '../../../shared/consolidate';
import { formatBytes, formatRelative, formatTime, plural } from '../lib/format';
import { engineLabels, formatTokens } from './run-labels';
import { SelectionTable } from './selection-table';

const LIST_CAP = 12;

/** A list of paths, the first few shown and the rest one click away. */
function PathList({ paths, label, mark }: { paths: readonly string[]; label: string; mark?: (path: string) => ReactNode }) {
  const [all, setAll] = useState(false);
  if (paths.length === 0) return null;
  const shown = all ? paths : paths.slice(0, LIST_CAP);
  return (
    <>
      <ul className="plain-list path-list" aria-label={label}>
        {shown.map((path) => (
          <li key={path}>
            <code className="break">{path}</code> {mark?.(path)}
          </li>
        ))}
      </ul>
      {shown.length < paths.length ? (
        <button type="button" className="link-button small" onClick={() => setAll(true)}>
          Show all {paths.length.toLocaleString()}
        </button>
      ) : null}
    </>
  );
}

type ShownLeaseState = LeaseView['state'] | 'held-by-this-run' | 'held-for-review';

const leaseBadge: Record<ShownLeaseState, { text: string; className: string }> = {
  free: { text: 'Lease free', className: 'badge-ok' },
  held: { text: 'Lease held by Codex', className: 'badge-error' },
  'held-by-studio': { text: 'Lease held by Memory Studio', className: 'badge-info' },
  'held-by-dead-studio': { text: 'Lease left by a stopped Memory Studio', className: 'badge-warn' },
  'held-by-this-run': { text: 'Lease held by this run', className: 'badge-info' },
  'held-for-review': { text: 'Lease held for the review', className: 'badge-info' },
  'no-db': { text: 'No memory database', className: 'badge-warn' },
};

/**
 * What holds the lease, as true as this page can know it: this app's own run (running, or holding it while its
 * result is reviewed) says so and what releases it; otherwise the row as the last preview read it.
 */
export function shownLease(lease: LeaseView, run: RunStatus | undefined): { state: ShownLeaseState; message: string } {
  if (run?.lease.held) {
    const until = run.lease.leaseUntil ? ` until ${formatTime(run.lease.leaseUntil * 1000)}` : '';
    if (run.state === 'running' || run.state === 'cancelling') {
      return {
        state: 'held-by-this-run',
        message: `This run holds Codex's lease${until} while it works; it is handed back when the run ends or is cancelled.`,
      };
    }
    if (run.state === 'proposed') {
      return {
        state: 'held-for-review',
        message: `Held${until} while its result waits in the review, so Codex cannot consolidate under it; Apply or Reject releases it.`,
      };
    }
  }
  return { state: lease.state, message: lease.message };
}

export function LeaseNotice({ lease, run }: { lease: LeaseView; run?: RunStatus | undefined }) {
  const now = Date.now() / 1000;
  const shown = shownLease(lease, run);
  const blocked = shown.state === 'held';
  const cooling = lease.cooldownUntil !== null && lease.cooldownUntil > now;
  return (
    <div className={blocked ? 'notice notice-warn' : 'notice notice-info'} data-testid="lease-notice" data-state={shown.state}>
      <p>
        <span className={`badge ${leaseBadge[shown.state].className}`}>{leaseBadge[shown.state].text}</span>{' '}
        <span data-testid="lease-message">{shown.message}</span>
      </p>
      {blocked ? (
        <p>
          <strong>Start is disabled</strong> while Codex holds the lease
          {lease.holder ? (
            <>
              {' '}
              (<code>{lease.holder}</code>)
            </>
          ) : null}
          {lease.leaseUntil ? `; it expires ${formatRelative(lease.leaseUntil, now)}` : ''}.
        </p>
      ) : null}
      {cooling && lease.cooldownUntil !== null ? (
        <p className="muted" data-testid="cooldown">
          Codex&rsquo;s own 6-hour cooldown ends {formatRelative(lease.cooldownUntil, now)}; it does not block a manual run.
        </p>
      ) : null}
    </div>
  );
}

function Counts({ preview }: { preview: InputPreview }) {
  const { selection, tokens } = preview;
  return (
    <dl className="consolidate-counts" data-testid="preview-counts">
      <div data-testid="count-selected" data-value={selection.rows.length}>
        <dt>Selected memories</dt>
        <dd>
          {selection.rows.length.toLocaleString()}{' '}
          <span className="muted">
            of {selection.eligible.toLocaleString()} eligible, limit {selection.limit.toLocaleString()}
          </span>
        </dd>
      </div>
      <div data-testid="count-bytes" data-value={selection.bytes}>
        <dt>Selection size</dt>
        <dd>{formatBytes(selection.bytes)}</dd>
      </div>
      <div data-testid="count-tokens-in" data-value={tokens.in}>
        <dt>Estimated tokens in</dt>
        <dd>{formatTokens(tokens.in)}</dd>
      </div>
      <div data-testid="count-tokens-out" data-value={tokens.out}>
        <dt>Estimated tokens out</dt>
        <dd>{formatTokens(tokens.out)}</dd>
      </div>
      <div data-testid="preview-engine" data-value={preview.engine}>
        <dt>Engine</dt>
        <dd>
          {engineLabels[preview.engine]}
          {preview.model ? (
            <>
              {' '}
              · <code>{preview.model}</code>
            </>
          ) : (
            <span className="muted"> · no model</span>
          )}
        </dd>
      </div>
    </dl>
  );
}

function SelectionSection({ preview }: { preview: InputPreview }) {
  const { selection } = preview;
  return (
    <section className="card" aria-labelledby="selection-title" data-testid="selection-section">
      <h2 id="selection-title">
        Selection <span className="muted">{selection.rows.length.toLocaleString()}</span>
      </h2>
      <p className="muted small">
        Codex&rsquo;s phase-2 selection: of the enabled threads used (or updated) within {plural(selection.maxUnusedDays, 'day')}, the{' '}
        {selection.limit.toLocaleString()} most used (then most recent) are kept, listed here in thread-id order, the order Codex hands them
        to the agent.
        {selection.excludedNotEnabled > 0
          ? ` ${plural(selection.excludedNotEnabled, 'row')} left out: the thread is no longer enabled.`
          : ''}
      </p>
      {selection.rows.length === 0 ? (
        <p className="notice notice-info" data-testid="nothing-selected">
          Nothing selected: no stage-1 memory is eligible right now. Use Codex for a while with memories on (each session becomes a stage-1
          memory), or check the Health view for failed stage-1 jobs. Ad-hoc notes and imports below are still consolidated.
        </p>
      ) : (
        <SelectionTable rows={selection.rows} />
      )}
      <div className="consolidate-sync">
        <div>
          <h3 data-testid="sync-added" data-count={selection.added.length}>
            Summaries to add <span className="muted">{selection.added.length}</span>
          </h3>
          {selection.added.length === 0 ? (
            <p className="muted small">None.</p>
          ) : (
            <PathList paths={selection.added} label="Summaries to add" />
          )}
        </div>
        <div>
          <h3 data-testid="sync-removed" data-count={selection.removed.length}>
            Summaries to remove <span className="muted">{selection.removed.length}</span>
          </h3>
          {selection.removed.length === 0 ? (
            <p className="muted small">None.</p>
          ) : (
            <PathList paths={selection.removed} label="Summaries to remove" />
          )}
        </div>
      </div>
    </section>
  );
}

function InputCard({
  title,
  testId,
  count,
  bytes,
  empty,
  children,
}: {
  title: string;
  testId: string;
  count: number;
  bytes?: number;
  empty: string;
  children?: ReactNode;
}) {
  return (
    <section className="card consolidate-input" data-testid={testId} data-count={count} aria-label={title}>
      <h3>
        {title}{' '}
        <span className="muted">
          {count.toLocaleString()}
          {bytes !== undefined && count > 0 ? ` · ${formatBytes(bytes)}` : ''}
        </span>
      </h3>
      {count === 0 ? <p className="muted small">{empty}</p> : children}
    </section>
  );
}

/** The badge on an input that holds a secret: which lines and what core says they hold. */
function SecretMark({ secret }: { secret: InputSecret | undefined }) {
  if (!secret) return null;
  return (
    <span
      className="badge badge-small badge-error"
      data-testid="secret-mark"
      title={`Holds ${secret.kinds.join(', ')} on line ${secret.lines.join(', ')}`}
    >
      secret
    </span>
  );
}

/** Every input that holds a secret, with what a run does about it and what the person can do. */
function SecretInputs({ secrets }: { secrets: readonly InputSecret[] }) {
  if (secrets.length === 0) return null;
  return (
    <div className="notice notice-warn" data-testid="preview-secrets" data-count={secrets.length}>
      <p>
        <strong>
          {plural(secrets.length, 'input')} hold{secrets.length === 1 ? 's' : ''} a secret.
        </strong>{' '}
        No engine sees one: every engine (builtin, codex, openai) reads these inputs with <code>[REDACTED_SECRET]</code> where each was, so
        none leaves the machine. A file the engine leaves alone stays as it is; one it changes is proposed with the placeholder, a hunk the
        review marks. A run whose result still holds a secret fails, naming the file and line, with nothing proposed. Redact it at its
        source (Files view, Redact).
      </p>
      <ul className="plain-list path-list" aria-label="Inputs holding a secret">
        {secrets.map((s) => (
          <li key={s.path}>
            <code className="break">{s.path}</code>{' '}
            <span className="small">
              line {s.lines.join(', ')}: {s.kinds.join(', ')}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

function OtherInputs({ preview }: { preview: InputPreview }) {
  const { adHocNotes, extensionResources, imports, handEdits } = preview;
  const expired = new Set(extensionResources.expired);
  const secretOf = new Map(preview.secrets.map((s) => [s.path, s]));
  const secretMark = (path: string) => <SecretMark secret={secretOf.get(path)} />;
  return (
    <div className="consolidate-inputs">
      <InputCard
        title="Ad-hoc notes"
        testId="input-notes"
        count={adHocNotes.count}
        bytes={adHocNotes.bytes}
        empty="No ad-hoc note. Add one from the Review view (New note)."
      >
        <PathList paths={adHocNotes.paths} label="Ad-hoc notes" mark={secretMark} />
      </InputCard>
      <InputCard
        title="Extension resources"
        testId="input-resources"
        count={extensionResources.count}
        bytes={extensionResources.bytes}
        empty="No extension resource."
      >
        <PathList
          paths={extensionResources.paths}
          label="Extension resources"
          mark={(path) => (
            <>
              {expired.has(path) ? <span className="badge badge-small badge-warn">expired</span> : null}
              {secretMark(path)}
            </>
          )}
        />
      </InputCard>
      <InputCard title="Imports" testId="input-imports" count={imports.count} bytes={imports.bytes} empty="Nothing imported.">
        {imports.projects.length > 0 ? <p className="small">Projects: {imports.projects.join(', ')}</p> : null}
        <PathList paths={imports.paths} label="Imports" mark={secretMark} />
      </InputCard>
      <InputCard
        title="Hand edits since baseline"
        testId="input-hand-edits"
        count={handEdits.files.length}
        empty={handEdits.hasBaseline ? 'No hand edit since the git baseline.' : 'No git baseline yet: hand edits cannot be told apart.'}
      >
        <ul className="plain-list path-list" aria-label="Hand edits">
          {handEdits.files.map((file) => (
            <li key={file.path}>
              <span className={`badge badge-small ${file.status === 'deleted' ? 'badge-error' : 'badge-info'}`}>{file.status}</span>{' '}
              <code className="break">{file.path}</code> {secretMark(file.path)}
            </li>
          ))}
        </ul>
      </InputCard>
    </div>
  );
}

export function InputPreviewView({ preview, run }: { preview: InputPreview; run?: RunStatus | undefined }) {
  return (
    <div className="consolidate-preview" data-testid="input-preview" data-version={preview.version}>
      <LeaseNotice lease={preview.lease} run={run?.version === preview.version ? run : undefined} />
      {preview.lease.state === 'no-db' ? (
        <p className="notice notice-info" data-testid="no-memory-db">
          Codex has no memory database for this root yet, so there is nothing to select. Turn on <code>[features] memories</code> in{' '}
          <code>config.toml</code> and use Codex for a few sessions; a run can still fold in ad-hoc notes and imports.
        </p>
      ) : null}
      <Counts preview={preview} />
      {preview.notes.length > 0 ? (
        <ul className="notice notice-warn plain-list" aria-label="Notes about the inputs" data-testid="preview-notes">
          {preview.notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      ) : null}
      <SecretInputs secrets={preview.secrets} />
      <SelectionSection preview={preview} />
      <OtherInputs preview={preview} />
    </div>
  );
}
