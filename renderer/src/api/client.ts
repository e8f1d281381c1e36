// Picks the transport (preload bridge in Electron, HTTP in a browser) and exposes the typed, validated StudioApi.
import { createContext, useContext } from 'react';
import {
  buildApi,
  type ChannelInput,
  type ChannelName,
  type ChannelOutput,
  type EventEnvelope,
  type StudioApi,
} from '../../../shared/contract';
import type { Result } from '../../../shared/result';
import { getAccessToken } from './access-token';
import { createHttpTransport, type RawTransport } from './http-transport';
import { createIpcTransport } from './ipc-transport';
import type { LiveStatusSource } from './live-status';
import { parseEnvelope, validateResult } from './validate';

export interface StudioClient {
  readonly transport: 'ipc' | 'http';
  readonly api: StudioApi;
  /** The same validated call by channel name, for the generic data layer (studio-query.ts). */
  call<C extends ChannelName>(channel: C, input: ChannelInput<C>, signal?: AbortSignal): Promise<Result<ChannelOutput<C>>>;
  readonly live: LiveStatusSource;
  /** Fires when events may have been missed (the stream reconnected): everything should be refetched. */
  onResync(listener: () => void): () => void;
}

/** Wraps a raw transport so every answer and event is checked against shared/contract before React sees it. */
export function createStudioClient(transport: 'ipc' | 'http', raw: RawTransport): StudioClient {
  const validated = async (channel: ChannelName, input: unknown, signal?: AbortSignal): Promise<Result<unknown>> =>
    validateResult(channel, await raw.call(channel, input, signal));
  const api = buildApi(validated, (listener: (envelope: EventEnvelope) => void) =>
    raw.subscribe((candidate) => {
      const envelope = parseEnvelope(candidate);
      if (envelope) listener(envelope);
      else console.warn('Memory Studio: dropped an event that does not match the contract', candidate);
    }),
  );
  const call = ((channel: ChannelName, input: unknown, signal?: AbortSignal) =>
    validated(channel, input ?? {}, signal)) as StudioClient['call'];
  return { transport, api, call, live: raw.live, onResync: raw.onResync };
}

let defaultClient: StudioClient | undefined;

/** The client for this page: created once, on first use. */
export function getDefaultClient(): StudioClient {
  if (!defaultClient) {
    const bridge = window.studio;
    defaultClient = bridge
      ? createStudioClient('ipc', createIpcTransport(bridge))
      : createStudioClient('http', createHttpTransport(getAccessToken()));
  }
  return defaultClient;
}

/** Context so tests (or a future second window) can hand the tree another client. */
export const StudioClientContext = createContext<StudioClient | null>(null);

export function useStudioClient(): StudioClient {
  return useContext(StudioClientContext) ?? getDefaultClient();
}
