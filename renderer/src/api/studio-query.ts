// The renderer's one data layer over shared/contract: one key factory, and a query or mutation hook for any channel.
import {
  keepPreviousData,
  skipToken,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
  type QueryClient,
  type QueryKey,
  type UseMutationResult,
  type UseQueryOptions,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { ChannelInput, ChannelName, ChannelOutput } from '../../../shared/contract';
import type { HomeInfo } from '../../../shared/domain';
import { mutationEffects, queryPolicy, type QueryPolicy } from './channel-policy';
import { useStudioClient, type StudioClient } from './client';
import { unwrap } from './studio-request-error';

export { skipToken };

/** A channel's input, or skipToken while the screen has nothing to ask yet. */
export type StudioInput<C extends ChannelName> = ChannelInput<C> | typeof skipToken;

/**
 * Answers that do not depend on the Codex home. Every other key ends with the home, so switching homes (the demo)
 * starts from fresh keys instead of showing the previous home's answers while refetching; those queries wait for it.
 */
const homeFree: ReadonlySet<ChannelName> = new Set<ChannelName>([
  'app.info',
  'home.get',
  'index.status',
  'consolidate.settings',
  'consolidate.runs',
  'consolidate.status',
]);

/**
 * The one key factory: `[channel, input, home]` (no home for home-free channels), `[channel, 'skip']` while skipped.
 * Invalidation matches prefixes, and react-query matches an object in a key by its listed fields, so
 * `[channel, { version }]` reaches every answer of that channel for that root, whatever the other fields and the home.
 */
export function studioKey<C extends ChannelName>(channel: C, input: StudioInput<C>, codexHome: string): QueryKey {
  if (input === skipToken) return [channel, 'skip'];
  return homeFree.has(channel) ? [channel, input] : [channel, input, codexHome];
}

/** One call through the validated client, as a value or a thrown StudioRequestError (what react-query's error state shows). */
export async function callChannel<C extends ChannelName>(
  client: StudioClient,
  channel: C,
  input: ChannelInput<C>,
  signal?: AbortSignal,
): Promise<ChannelOutput<C>> {
  return unwrap(channel, await client.call(channel, input, signal));
}

/** The cache by channel name: what mutation effects and host events read, write and invalidate. */
export interface StudioCache {
  readonly queryClient: QueryClient;
  /** The current home ('' before the first answer), read from the cache so effects and events need no hook. */
  codexHome(): string;
  get<C extends ChannelName>(channel: C, input: ChannelInput<C>): ChannelOutput<C> | undefined;
  set<C extends ChannelName>(
    channel: C,
    input: ChannelInput<C>,
    value: ChannelOutput<C> | ((old: ChannelOutput<C> | undefined) => ChannelOutput<C> | undefined),
  ): void;
  /** Refetches (when on screen) every answer of these channels, or only those whose input has the fields of `partial`. */
  invalidate(channels: ChannelName | readonly ChannelName[], partial?: Record<string, unknown>): Promise<void>;
  /** Everything: another home, or events that may have been missed. */
  invalidateAll(): Promise<void>;
}

export function studioCache(queryClient: QueryClient): StudioCache {
  const codexHome = () => queryClient.getQueryData<HomeInfo>(studioKey('home.get', {}, ''))?.codexHome ?? '';
  return {
    queryClient,
    codexHome,
    get: (channel, input) => queryClient.getQueryData(studioKey(channel, input, codexHome())),
    set: (channel, input, value) => void queryClient.setQueryData(studioKey(channel, input, codexHome()), value),
    invalidate: async (channels, partial) => {
      const list: readonly ChannelName[] = typeof channels === 'string' ? [channels] : channels;
      await Promise.all(list.map((channel) => queryClient.invalidateQueries({ queryKey: partial ? [channel, partial] : [channel] })));
    },
    invalidateAll: () => queryClient.invalidateQueries(),
  };
}

function policyOptions(policy: QueryPolicy<ChannelName>) {
  return {
    ...(policy.staleTime !== undefined ? { staleTime: policy.staleTime } : {}),
    ...(policy.gcTime !== undefined ? { gcTime: policy.gcTime } : {}),
    ...(policy.retry !== undefined ? { retry: policy.retry } : {}),
    ...(policy.keepPrevious ? { placeholderData: keepPreviousData } : {}),
    ...(policy.refetchInterval
      ? { refetchInterval: (query: { state: { data: unknown } }) => policy.refetchInterval?.(query.state.data as never) ?? false }
      : {}),
  };
}

/** The full react-query options of one channel's query: key, call + unwrap, and the channel's policy. */
export function studioQueryOptions<C extends ChannelName>(
  client: StudioClient,
  queryClient: QueryClient,
  channel: C,
  input: StudioInput<C>,
  codexHome: string,
): UseQueryOptions<ChannelOutput<C>, Error> {
  const ready = input !== skipToken && (homeFree.has(channel) || codexHome !== '');
  const policy = (queryPolicy[channel] ?? {}) as QueryPolicy<ChannelName>;
  return {
    queryKey: studioKey(channel, ready ? input : skipToken, codexHome),
    queryFn: ready
      ? async ({ signal }) => {
          // Reading the signal lets react-query cancel a query nobody watches any more (its key moved on): the HTTP
          // request is dropped and serve stops the work.
          const value = await callChannel(client, channel, input, signal);
          policy.afterFetch?.(studioCache(queryClient), value);
          return value;
        }
      : skipToken,
    ...policyOptions(policy),
  };
}

/** The current Codex home, or '' while it loads (home-scoped queries wait for it). */
export function useCodexHome(): string {
  return useStudioQuery('home.get', {}).data?.codexHome ?? '';
}

/** One channel's answer: `useStudioQuery('inspect.parse', { version, path })`, skipToken to ask nothing yet. */
export function useStudioQuery<C extends ChannelName>(channel: C, input: StudioInput<C>): UseQueryResult<ChannelOutput<C>, Error> {
  const client = useStudioClient();
  const queryClient = useQueryClient();
  // home.get is the home: it never waits for itself.
  const home = useQuery({
    ...studioQueryOptions(client, queryClient, 'home.get', {}, ''),
    enabled: channel !== 'home.get' && !homeFree.has(channel),
  });
  return useQuery(studioQueryOptions(client, queryClient, channel, input, home.data?.codexHome ?? ''));
}

/** One channel asked with several inputs at once (each root's list or lint), combined like useQueries does. */
export function useStudioQueries<C extends ChannelName, R>(
  channel: C,
  inputs: readonly ChannelInput<C>[],
  combine: (results: UseQueryResult<ChannelOutput<C>, Error>[]) => R,
): R {
  const client = useStudioClient();
  const queryClient = useQueryClient();
  const codexHome = useCodexHome();
  return useQueries({ queries: inputs.map((input) => studioQueryOptions(client, queryClient, channel, input, codexHome)), combine });
}

/** The same query asked from an event handler (starting to edit a result): cached answers are reused. */
export function useStudioFetch() {
  const client = useStudioClient();
  const queryClient = useQueryClient();
  const codexHome = useCodexHome();
  return <C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> =>
    queryClient.fetchQuery<ChannelOutput<C>>(studioQueryOptions(client, queryClient, channel, input, codexHome));
}

/** A change through one channel; what it does to the cache afterwards is the channel's entry in `mutationEffects`. */
export function useStudioMutation<C extends ChannelName>(channel: C): UseMutationResult<ChannelOutput<C>, Error, ChannelInput<C>> {
  const client = useStudioClient();
  const queryClient = useQueryClient();
  const effects = mutationEffects[channel];
  return useMutation({
    mutationFn: (input: ChannelInput<C>) => callChannel(client, channel, input),
    onSuccess: (output, input) => effects?.success?.(studioCache(queryClient), output, input),
    onSettled: () => effects?.settled?.(studioCache(queryClient)),
  });
}
