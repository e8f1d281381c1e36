// The browser-mode transport: channels as `POST /api/<channel>` with the page's bearer token, events over SSE.
import type { ChannelName } from '../../../shared/contract';
import { fail, type StudioError } from '../../../shared/result';
import { createLiveStatusStore, type LiveStatusSource } from './live-status';

export interface RawTransport {
  /**
   * Sends one request; the answer is unvalidated (the client checks it against the contract). `signal` aborts it when
   * its query is superseded (HTTP: the request is dropped and the server stops the work; IPC cannot take a request back).
   */
  call(channel: ChannelName, input: unknown, signal?: AbortSignal): Promise<unknown>;
  /** Delivers raw event envelopes; returns an unsubscribe function. */
  subscribe(listener: (raw: unknown) => void): () => void;
  /** Called after the event stream came back from an outage, when events may have been missed. */
  onResync(listener: () => void): () => void;
  live: LiveStatusSource;
}

const RECONNECT_HINT = 'Check that `memory-studio serve` is still running in its terminal, then retry.';

/** Maps a non-200 status to a StudioError; the server sends Results only with 200. */
export function httpStatusError(channel: ChannelName, status: number): StudioError {
  if (status === 401) {
    return {
      kind: 'Invalid',
      message:
        "This page's access token is missing or expired. Open the URL that Memory Studio printed in the terminal where it started (`npm start` or `memory-studio serve`).",
      hint: 'Each start prints a new URL with a new token; old tabs stop working.',
    };
  }
  if (status === 403) {
    return {
      kind: 'Invalid',
      message: `The Memory Studio server refused ${channel} (HTTP 403): it only answers its own page on 127.0.0.1.`,
      hint: 'Open the exact URL that `memory-studio serve` printed, not another host name or a proxy.',
    };
  }
  if (status >= 500) {
    return {
      kind: 'Internal',
      message: `The Memory Studio server failed while handling ${channel} (HTTP ${status}).`,
      hint: 'The terminal running `memory-studio serve` shows the details. Retry once it is fixed.',
    };
  }
  return {
    kind: 'Invalid',
    message: `The Memory Studio server rejected ${channel} (HTTP ${status}).`,
    hint: RECONNECT_HINT,
  };
}

/**
 * 401, 403 and 5xx get our own wording (the person needs to know what to do, not what the guard saw);
 * other statuses (400, 404, 415…) keep the server's message when it sent a readable one.
 */
async function statusError(channel: ChannelName, response: Response): Promise<StudioError> {
  const fallback = httpStatusError(channel, response.status);
  // A 401 from our own server names what was run to start it (`npm start`, `memory-studio serve`): its words, our hint.
  if (response.status === 401) return { ...fallback, message: (await serverMessage(response)) ?? fallback.message };
  if (response.status === 403 || response.status >= 500) return fallback;
  try {
    const body = (await response.json()) as { error?: { message?: unknown } };
    const message = body.error?.message;
    return typeof message === 'string' && message
      ? { ...fallback, message: `${message} (HTTP ${response.status} from ${channel})` }
      : fallback;
  } catch {
    return fallback;
  }
}

async function serverMessage(response: Response): Promise<string | null> {
  try {
    const message = ((await response.json()) as { error?: { message?: unknown } }).error?.message;
    return typeof message === 'string' && message ? message : null;
  } catch {
    return null;
  }
}

export function createHttpTransport(token: string | null): RawTransport {
  const live = createLiveStatusStore('connecting');
  const listeners = new Set<(raw: unknown) => void>();
  const resyncListeners = new Set<() => void>();
  let source: EventSource | null = null;
  let connectedOnce = false;

  async function call(channel: ChannelName, input: unknown, signal?: AbortSignal): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(`/api/${channel}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token ?? ''}` },
        body: JSON.stringify(input ?? {}),
        cache: 'no-store',
        ...(signal ? { signal } : {}),
      });
    } catch {
      if (signal?.aborted) return fail({ kind: 'Cancelled', message: `${channel} was cancelled: its answer is no longer needed.` });
      return fail({ kind: 'Internal', message: `Could not reach the Memory Studio server for ${channel}.`, hint: RECONNECT_HINT });
    }
    if (response.status !== 200) return fail(await statusError(channel, response));
    try {
      return (await response.json()) as unknown;
    } catch {
      return fail({
        kind: 'Internal',
        message: `The Memory Studio server answered ${channel} with something that is not JSON.`,
        hint: RECONNECT_HINT,
      });
    }
  }

  function open(): void {
    // EventSource cannot send headers, so the token rides in the query string (same-origin, never logged by us).
    const es = new EventSource(`/api/events?token=${encodeURIComponent(token ?? '')}`);
    source = es;
    es.onopen = () => {
      const wasDown = connectedOnce && live.get() !== 'live';
      connectedOnce = true;
      live.set('live');
      if (wasDown) for (const listener of resyncListeners) listener();
    };
    es.onerror = () => {
      // CLOSED means the browser gave up (for example a 401 after the server restarted with a new token).
      live.set(es.readyState === EventSource.CLOSED ? 'off' : 'reconnecting');
    };
    es.onmessage = (message: MessageEvent<string>) => {
      let raw: unknown;
      try {
        raw = JSON.parse(message.data);
      } catch {
        return;
      }
      for (const listener of listeners) listener(raw);
    };
  }

  function subscribe(listener: (raw: unknown) => void): () => void {
    listeners.add(listener);
    if (!source) open();
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && source) {
        source.close();
        source = null;
        live.set('off');
      }
    };
  }

  function onResync(listener: () => void): () => void {
    resyncListeners.add(listener);
    return () => resyncListeners.delete(listener);
  }

  return { call, subscribe, onResync, live };
}
