// react-query hooks for the consolidate channels: input preview, engine settings, runs, start, cancel and a run's status.
import { skipToken, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { EngineName, EngineSettings, EngineSettingsView, RunStatus } from '../../../shared/consolidate';
import type { MemoryVersion } from '../../../shared/domain';
import { useStudioClient } from '../api/client';
import { useHome } from '../api/queries';
import { invalidateReview } from '../api/review-queries';
import { unwrap } from '../api/studio-request-error';

/**
 * The preview key starts like the inspect keys (channel, version), so a `workspace.changed` of that root refreshes it;
 * run keys need no home: run ids are unique and a home switch invalidates everything anyway.
 */
export const consolidateKeys = {
  all: ['consolidate'] as const,
  preview: (version: MemoryVersion, engine: EngineName, codexHome: string) => ['consolidate.preview', version, engine, codexHome] as const,
  previews: ['consolidate.preview'] as const,
  settings: ['consolidate', 'settings'] as const,
  runs: ['consolidate', 'runs'] as const,
  status: (id: string) => ['consolidate', 'status', id] as const,
};

export const activeStates: ReadonlySet<RunStatus['state']> = new Set(['running', 'cancelling']);

export function isActive(run: RunStatus | null | undefined): boolean {
  return !!run && activeStates.has(run.state);
}

/** Keeps a run's newest known state in the status and runs caches; an end state refreshes what it changed. */
export function storeRun(queryClient: QueryClient, run: RunStatus): void {
  const previous = queryClient.getQueryData<RunStatus>(consolidateKeys.status(run.id));
  queryClient.setQueryData(consolidateKeys.status(run.id), run);
  queryClient.setQueryData<RunStatus[]>(consolidateKeys.runs, (runs) => {
    if (!runs) return runs;
    const index = runs.findIndex((r) => r.id === run.id);
    if (index < 0) return [run, ...runs];
    return runs.map((r) => (r.id === run.id ? run : r));
  });
  const stateChanged = !previous || previous.state !== run.state;
  // A proposal was born (Review badge).
  if (stateChanged && !activeStates.has(run.state)) void invalidateReview(queryClient);
  // The lease the preview shows is taken when a run starts, and released or kept for the review when it ends.
  if (stateChanged) void queryClient.invalidateQueries({ queryKey: consolidateKeys.previews });
}

export function usePreview(version: MemoryVersion | null, engine: EngineName) {
  const { api } = useStudioClient();
  const home = useHome().data?.codexHome;
  return useQuery({
    queryKey: consolidateKeys.preview(version ?? 'v1', engine, home ?? ''),
    queryFn: home && version ? async () => unwrap('consolidate.preview', await api.consolidate.preview({ version, engine })) : skipToken,
    // A lease held elsewhere can simply expire (nothing on disk changes): look again, so Start comes back by itself.
    refetchInterval: (query) => (['held', 'held-by-studio', 'held-by-dead-studio'].includes(query.state.data?.lease.state ?? '') ? 10_000 : false),
  });
}

export function useEngineSettings() {
  const { api } = useStudioClient();
  return useQuery({
    queryKey: consolidateKeys.settings,
    queryFn: async () => unwrap('consolidate.settings', await api.consolidate.settings({})),
  });
}

function useSettingsMutation<I>(send: (input: I) => Promise<EngineSettingsView>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (view) => {
      queryClient.setQueryData(consolidateKeys.settings, view);
      // The engine's model shows in the preview.
      void queryClient.invalidateQueries({ queryKey: consolidateKeys.previews });
    },
  });
}

export function useSaveSettings() {
  const { api } = useStudioClient();
  return useSettingsMutation(async (settings: EngineSettings) => unwrap('consolidate.saveSettings', await api.consolidate.saveSettings({ settings })));
}

/** Stores (a string) or forgets (null) the OpenAI-compatible key in the OS keychain. */
/** Electron: main's file dialog picks the codex executable (checked with --version); the page never sends a path. */
export function useChooseCodexCommand() {
  const { api } = useStudioClient();
  return useSettingsMutation(async () => unwrap('consolidate.chooseCodexCommand', await api.consolidate.chooseCodexCommand({})));
}

export function useSetApiKey() {
  const { api } = useStudioClient();
  return useSettingsMutation(async (apiKey: string | null) => unwrap('consolidate.setApiKey', await api.consolidate.setApiKey({ apiKey })));
}

export function useRuns() {
  const { api } = useStudioClient();
  return useQuery({
    queryKey: consolidateKeys.runs,
    queryFn: async () => unwrap('consolidate.runs', await api.consolidate.runs({})),
  });
}

/** How often the status is polled while a run is active: the fallback when `consolidate.progress` events are missed. */
const POLL_MS = 1500;

export function useRunStatus(id: string | null) {
  const { api } = useStudioClient();
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: consolidateKeys.status(id ?? ''),
    queryFn: id
      ? async () => {
          const run = unwrap('consolidate.status', await api.consolidate.status({ id }));
          storeRun(queryClient, run);
          return run;
        }
      : skipToken,
    refetchInterval: (query) => (isActive(query.state.data) ? POLL_MS : false),
  });
}

export interface StartInput {
  version: MemoryVersion;
  engine: EngineName;
  model?: string;
}

export function useStartRun() {
  const { api } = useStudioClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: StartInput) => unwrap('consolidate.start', await api.consolidate.start(input)),
    onSuccess: (run) => storeRun(queryClient, run),
  });
}

export function useCancelRun() {
  const { api } = useStudioClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => unwrap('consolidate.cancel', await api.consolidate.cancel({ id })),
    onSuccess: (run) => storeRun(queryClient, run),
  });
}
