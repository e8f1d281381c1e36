// The one stub of the renderer suite: a raw transport at the contract boundary (answers still pass the real
// validator and the real client), plus the providers a hook or component needs to run as it does in the app.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createStudioClient, StudioClientContext, type StudioClient } from '../../../renderer/src/api/client';
import type { RawTransport } from '../../../renderer/src/api/http-transport';
import { createLiveStatusStore, type LiveStatusStore } from '../../../renderer/src/api/live-status';
import type { ChannelName } from '../../../shared/contract';
import { HomeInfoSchema, type HomeInfo } from '../../../shared/domain';
import { ok, type Result } from '../../../shared/result';

/** Answers per channel; a channel without one fails the test loudly instead of hanging a query. */
export type Handlers = Partial<Record<ChannelName, (input: never) => Result<unknown> | Promise<Result<unknown>>>>;

export interface StudioStub {
  client: StudioClient;
  queryClient: QueryClient;
  /** The live-update state the status bar shows; the test sets it. */
  live: LiveStatusStore;
  /** Every request in order, as the client sent it. */
  calls: Array<{ channel: ChannelName; input: unknown }>;
  wrapper: (props: { children: ReactNode }) => ReactNode;
}

export const CODEX_HOME = '/home/dana/.codex';

/** A home with a v1 and a v2 root, checked against the contract's schema so a drifting fixture fails here. */
export const homeInfo: HomeInfo = HomeInfoSchema.parse({
  codexHome: CODEX_HOME,
  source: 'flag',
  exists: true,
  sqliteHome: CODEX_HOME,
  sqliteHomeSource: 'codex-home',
  stateDbExists: true,
  isDemo: false,
  roots: (['v1', 'v2'] as const).map((version) => ({
    version,
    path: `${CODEX_HOME}/${version === 'v1' ? 'memories' : 'memories_v2'}`,
    exists: true,
    isSymlink: false,
    hasGitBaseline: false,
    dbPath: `${CODEX_HOME}/${version === 'v1' ? 'memories' : 'memories_v2'}.sqlite`,
    dbExists: true,
  })),
  config: {
    path: `${CODEX_HOME}/config.toml`,
    exists: true,
    featureMemories: true,
    memories: {
      version: 'v2',
      versionSource: 'default',
      dualWrite: false,
      disableOnExternalContext: false,
      generateMemories: true,
      useMemories: true,
      dedicatedTools: false,
      maxRawMemoriesForConsolidation: 256,
      maxUnusedDays: 30,
      maxRolloutAgeDays: 30,
      maxRolloutsPerStartup: 16,
      minRolloutIdleHours: 6,
      minRateLimitRemainingPercent: 25,
      extractModel: null,
      consolidationModel: null,
      consolidationServiceTier: null,
    },
    sqliteHome: null,
    diagnostics: [],
  },
  codexReads: { version: 'v2', source: 'default', off: null },
  returnHome: null,
});

export function studioStub(handlers: Handlers): StudioStub {
  const calls: StudioStub['calls'] = [];
  const live = createLiveStatusStore('live');
  const all: Handlers = { 'home.get': () => ok(homeInfo), ...handlers };
  const raw: RawTransport = {
    async call(channel, input) {
      calls.push({ channel, input });
      const handler = all[channel];
      if (!handler) throw new Error(`The test has no answer for ${channel}`);
      return handler(input as never);
    },
    subscribe: () => () => undefined,
    onResync: () => () => undefined,
    live,
  };
  const client = createStudioClient('ipc', raw);
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <StudioClientContext.Provider value={client}>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </StudioClientContext.Provider>
  );
  return { client, queryClient, live, calls, wrapper };
}

/** A promise the test settles by hand, to hold a request open while it looks at the screen. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
