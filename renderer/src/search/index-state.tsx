// The index's state in words, with Cancel while it builds and Resume after a cancel (the search view and the status bar).
import { useStudioMutation, useStudioQuery } from '../api/studio-query';

export function IndexState({ compact = false }: { compact?: boolean }) {
  const status = useStudioQuery('index.status', {}).data;
  const cancel = useStudioMutation('index.cancel');
  const resume = useStudioMutation('index.resume');
  if (!status || status.state === 'idle' || (compact && status.state === 'ready')) return null;
  const text =
    status.state === 'building'
      ? `Indexing ${status.done.toLocaleString()} of ${status.total.toLocaleString()} files…`
      : status.state === 'ready'
        ? 'Index up to date'
        : status.message;
  return (
    <span
      className={`index-state index-${status.state}`}
      data-testid="index-state"
      data-state={status.state}
      role="status"
      title={status.notice ?? status.message}
    >
      {status.state === 'building' ? <progress max={status.total} value={status.done} aria-label="Index build" /> : null}
      <span className="index-state-text">{compact && status.state !== 'building' ? shortText(status.state) : text}</span>
      {status.state === 'building' ? (
        <button type="button" className="button button-small" disabled={cancel.isPending} onClick={() => cancel.mutate({})}>
          Cancel
        </button>
      ) : null}
      {status.state === 'cancelled' ? (
        <button type="button" className="button button-small" disabled={resume.isPending} onClick={() => resume.mutate({})}>
          Resume
        </button>
      ) : null}
    </span>
  );
}

function shortText(state: string): string {
  return state === 'off' ? 'Index off (hover for why)' : state === 'cancelled' ? 'Index build cancelled' : '';
}
