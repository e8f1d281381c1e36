// The Sync view: this machine's curated memory to a git remote, and what others published arriving as an import to review.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ChannelName } from '../../../shared/contract';
import type { StudioError } from '../../../shared/result';
import type { SyncPullResult, SyncPushResult, SyncStatus } from '../../../shared/sync';
import { useStudioClient } from '../api/client';
import { toStudioError } from '../api/studio-request-error';
import { callChannel, skipToken, studioCache, useStudioMutation, useStudioQuery } from '../api/studio-query';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import { plural } from '../lib/format';

export interface SyncPageProps {
  active: boolean;
  onOpenProposal: (id: string) => void;
}

interface ActionState<T> {
  running: boolean;
  result: T | null;
  error: StudioError | null;
}

/** A push or pull the person can cancel: aborting the request stops git on the host and releases the sync lock. */
function useNetworkAction<T>(call: (signal: AbortSignal) => Promise<T>) {
  const controller = useRef<AbortController | null>(null);
  const [state, setState] = useState<ActionState<T>>({ running: false, result: null, error: null });
  const run = async () => {
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    setState({ running: true, result: null, error: null });
    try {
      setState({ running: false, result: await call(own.signal), error: null });
    } catch (error) {
      setState({ running: false, result: null, error: toStudioError(error) });
    }
  };
  return { ...state, run, cancel: () => controller.current?.abort() };
}

/** Push and pull through the validated client; afterwards the status (and, for a pull, the review list) is read again. */
function useSyncActions() {
  const client = useStudioClient();
  const queryClient = useQueryClient();
  const refresh = (channels: readonly ChannelName[]) => void studioCache(queryClient).invalidate(channels);
  const push = useNetworkAction(async (signal) => {
    const result = await callChannel(client, 'sync.push', {}, signal);
    refresh(['sync.status']);
    return result;
  });
  const pull = useNetworkAction(async (signal) => {
    const result = await callChannel(client, 'sync.pull', {}, signal);
    refresh(['sync.status', 'review.list']);
    return result;
  });
  return { push, pull };
}

/** The latest step the host reported (`sync.progress`) while a push or pull runs; cleared when it ends. */
function useSyncProgress(running: boolean): string | null {
  const client = useStudioClient();
  const [line, setLine] = useState<string | null>(null);
  useEffect(() => {
    if (!running) {
      setLine(null);
      return undefined;
    }
    return client.api.onEvent((envelope) => {
      if (envelope.event === 'sync.progress') setLine(envelope.payload.line);
    });
  }, [client, running]);
  return line;
}

const when = (ms: number | undefined) => (ms === undefined ? 'never' : new Date(ms).toLocaleString());

function SetUpForm() {
  const init = useStudioMutation('sync.init');
  const [remote, setRemote] = useState('');
  const [machine, setMachine] = useState('');
  const remoteId = useId();
  const machineId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (remote.trim() === '') return;
    init.mutate({ remote: remote.trim(), ...(machine.trim() !== '' ? { machine: machine.trim() } : {}) });
  };
  return (
    <form className="sync-setup" onSubmit={submit} data-testid="sync-setup">
      <p>
        Publish this machine&rsquo;s curated memory (the summary, MEMORY.md, skills, notes and the rollout summaries they point to) to a git
        remote you own, and receive what your other machines publish as an import you review hunk by hunk. Memory Studio runs your own git
        with your credentials and stores none; a file with a possible secret is held back.
      </p>
      <label htmlFor={remoteId}>Remote</label>
      <input
        id={remoteId}
        className="text-input"
        value={remote}
        onChange={(e) => setRemote(e.target.value)}
        placeholder="git@github.com:you/codex-memory.git or /path/to/bare.git"
        data-testid="sync-remote-input"
        data-autofocus
      />
      <label htmlFor={machineId}>This machine&rsquo;s name</label>
      <input
        id={machineId}
        className="text-input"
        value={machine}
        onChange={(e) => setMachine(e.target.value)}
        placeholder="its host name"
        data-testid="sync-machine-input"
      />
      <button type="submit" className="button" disabled={init.isPending || remote.trim() === ''} data-testid="sync-init">
        {init.isPending ? 'Checking the remote…' : 'Set up sync'}
      </button>
      {init.error ? <ErrorPanel title="Sync could not be set up" error={toStudioError(init.error)} compact /> : null}
    </form>
  );
}

function PendingList({ status }: { status: SyncStatus }) {
  const { added, changed, removed } = status.pending;
  const rows = [
    ...added.map((p) => ['new', p] as const),
    ...changed.map((p) => ['changed', p] as const),
    ...removed.map((p) => ['removed', p] as const),
  ];
  if (rows.length === 0)
    return (
      <p className="muted" data-testid="sync-nothing-pending">
        Nothing pending: the remote holds what this machine would publish.
      </p>
    );
  return (
    <section aria-labelledby="sync-pending-title">
      <h2 id="sync-pending-title">Pending to publish ({rows.length})</h2>
      <ul className="sync-list" data-testid="sync-pending">
        {rows.slice(0, 200).map(([what, path]) => (
          <li key={`${what}:${path}`}>
            <span className="badge">{what}</span> <code>{path}</code>
          </li>
        ))}
      </ul>
      {rows.length > 200 ? <p className="muted small">and {rows.length - 200} more</p> : null}
    </section>
  );
}

function HeldBack({ status, onOpenProposal }: { status: SyncStatus; onOpenProposal: (id: string) => void }) {
  const redact = useStudioMutation('review.redact');
  if (status.heldBack.length === 0) return null;
  return (
    <section aria-labelledby="sync-held-title">
      <h2 id="sync-held-title">Held back ({status.heldBack.length})</h2>
      <p className="muted small">These files stay on this machine until they are fixed; nothing secret is published.</p>
      <ul className="sync-list" data-testid="sync-held-back">
        {status.heldBack.map((h) => (
          <li key={h.path}>
            <code>{h.path}</code> <span className="muted">{h.reason}</span>{' '}
            {h.reason.startsWith('possible secret') ? (
              <button
                type="button"
                className="button button-small"
                disabled={redact.isPending}
                onClick={() =>
                  redact.mutate(
                    { version: status.version, path: h.path, all: 'file' },
                    { onSuccess: (proposal) => onOpenProposal(proposal.id) },
                  )
                }
              >
                Propose redaction
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {redact.error ? <ErrorPanel title="The redaction could not be proposed" error={toStudioError(redact.error)} compact /> : null}
    </section>
  );
}

function Outcome({
  push,
  pull,
  onOpenProposal,
}: {
  push: ActionState<SyncPushResult>;
  pull: ActionState<SyncPullResult>;
  onOpenProposal: (id: string) => void;
}) {
  return (
    <div aria-live="polite" data-testid="sync-outcome">
      {push.result ? (
        <p>
          {push.result.changed
            ? `Published ${plural(push.result.published, 'file')} to ${push.result.owner}/${push.result.version}.`
            : `Nothing new to publish: ${push.result.owner}/${push.result.version} already holds these ${plural(push.result.published, 'file')}.`}
          {push.result.heldBack.length > 0 ? ` ${plural(push.result.heldBack.length, 'file')} held back.` : ''}
        </p>
      ) : null}
      {pull.result ? (
        <div>
          {pull.result.arrivals.map((a) => (
            <div key={a.owner} data-testid="sync-arrival" data-owner={a.owner}>
              <p className={a.problem ? 'text-danger' : undefined}>
                {a.problem ? `Refused ${a.owner}/${a.version}: ${a.problem}` : `${a.owner}/${a.version}: ${plural(a.changed, 'change')}.`}
              </p>
              {a.heldBack.length > 0 ? (
                <ul className="sync-list">
                  {a.heldBack.map((h) => (
                    <li key={h.path}>
                      held back: <code>{h.path}</code> <span className="muted">{h.reason}</span>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ))}
          {pull.result.removed.map((key) => (
            <p key={key}>Gone from the remote: {key.replace(/^sync-(machine|person)-/, '')}; removing its arrival is in the proposal.</p>
          ))}
          {[...pull.result.ignored, ...pull.result.problems].map((line) => (
            <p key={line} className="muted small">
              {line}
            </p>
          ))}
          {pull.result.proposalId ? (
            <button
              type="button"
              className="button"
              data-testid="sync-review-arrivals"
              onClick={() => onOpenProposal(pull.result?.proposalId ?? '')}
            >
              Review what arrived
            </button>
          ) : (
            <p className="muted">
              {pull.result.declined
                ? 'Nothing new since you rejected the last arrival; it is proposed again once something changes.'
                : pull.result.arrivals.length === 0 && pull.result.ignored.length === 0
                  ? 'No other machine has published yet.'
                  : 'Nothing new arrived.'}
            </p>
          )}
        </div>
      ) : null}
      {push.error ? <ErrorPanel title="The push did not finish" error={push.error} compact /> : null}
      {pull.error ? <ErrorPanel title="The pull did not finish" error={pull.error} compact /> : null}
    </div>
  );
}

/** Where this machine publishes, when it last pushed and pulled, and who else is on the remote. */
function Facts({ status, onOpenProposal }: { status: SyncStatus; onOpenProposal: (id: string) => void }) {
  return (
    <dl className="facts" data-testid="sync-facts">
      <dt>Remote</dt>
      <dd>
        <code>{status.remote}</code>
      </dd>
      <dt>This machine publishes</dt>
      <dd>
        <code>
          {status.owner}/{status.version}
        </code>
        {status.scopeProject ? ` (only entries of ${status.scopeProject})` : ''}
      </dd>
      <dt>Last push</dt>
      <dd>{when(status.lastPush?.at)}</dd>
      <dt>Last pull</dt>
      <dd>
        {when(status.lastPull?.at)}
        {status.lastPull?.proposalId ? (
          <>
            {' '}
            <button type="button" className="link-button" onClick={() => onOpenProposal(status.lastPull?.proposalId ?? '')}>
              its proposal
            </button>
          </>
        ) : null}
      </dd>
      <dt>Others on the remote</dt>
      <dd>{status.others.length > 0 ? status.others.join(', ') : 'none yet (as of the last fetch)'}</dd>
    </dl>
  );
}

export function SyncPage({ active, onOpenProposal }: SyncPageProps) {
  const query = useStudioQuery('sync.status', active ? {} : skipToken);
  const { push, pull } = useSyncActions();
  const status = query.data;
  const busy = push.running || pull.running;
  const step = useSyncProgress(busy);
  return (
    <section className="page sync-page" aria-labelledby="sync-title" data-testid="sync-page" data-state={status ? 'ready' : 'loading'}>
      <header className="page-header">
        <h1 id="sync-title">Sync</h1>
        {status?.configured ? (
          <>
            <button type="button" className="button" disabled={busy} onClick={() => void push.run()} data-testid="sync-push">
              {push.running ? 'Pushing…' : 'Push'}
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => void pull.run()} data-testid="sync-pull">
              {pull.running ? 'Pulling…' : 'Pull'}
            </button>
            {busy ? (
              <button
                type="button"
                className="button button-small"
                onClick={() => (push.running ? push.cancel() : pull.cancel())}
                data-testid="sync-cancel"
              >
                Cancel
              </button>
            ) : null}
          </>
        ) : null}
      </header>
      <div className="page-scroll">
        {busy ? (
          <p className="muted" data-testid="sync-progress" role="status">
            {step ?? (push.running ? 'Starting the push…' : 'Starting the pull…')}
          </p>
        ) : null}
        {query.error ? (
          <ErrorPanel title="Sync status could not be read" error={toStudioError(query.error)} onRetry={() => void query.refetch()} />
        ) : null}
        {!status && !query.error ? <LoadingState label="Reading the sync settings and checking what a push would publish…" /> : null}
        {status && !status.configured ? <SetUpForm /> : null}
        {status?.configured ? (
          <>
            <Facts status={status} onOpenProposal={onOpenProposal} />
            <Outcome push={push} pull={pull} onOpenProposal={onOpenProposal} />
            <HeldBack status={status} onOpenProposal={onOpenProposal} />
            <PendingList status={status} />
          </>
        ) : null}
      </div>
    </section>
  );
}
