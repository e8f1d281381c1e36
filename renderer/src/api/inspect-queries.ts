// react-query hooks for the inspect.* and provenance.* channels: outlines, budget, lint, health, tables, citations.
import { keepPreviousData, skipToken, useQuery } from '@tanstack/react-query';
import type { MemoryVersion } from '../../../shared/domain';
import { useStudioClient } from './client';
import { useHome } from './queries';
import { inspectKeys } from './query-keys';
import { unwrap } from './studio-request-error';

/** The current home, or '' while it loads (queries wait for it through skipToken). */
function useCodexHome(): string {
  return useHome().data?.codexHome ?? '';
}

/** The outline of one memory file (no source lines: the editor already has the text). */
export function useParse(version: MemoryVersion, path: string) {
  const { api } = useStudioClient();
  const codexHome = useCodexHome();
  return useQuery({
    queryKey: inspectKeys.parse(version, path, codexHome),
    queryFn: codexHome ? async () => unwrap('inspect.parse', await api.inspect.parse({ version, path })) : skipToken,
    gcTime: 60_000,
  });
}

/** What the next session is told of this root's memory_summary.md. */
export function useBudget(version: MemoryVersion, enabled = true) {
  const { api } = useStudioClient();
  const codexHome = useCodexHome();
  return useQuery({
    queryKey: inspectKeys.budget(version, codexHome),
    queryFn: codexHome && enabled ? async () => unwrap('inspect.budget', await api.inspect.budget({ version })) : skipToken,
  });
}

/** Lint of one file (with the root-level checks that concern it): the inspector never waits for a whole root. */
export function useFileLint(version: MemoryVersion, path: string) {
  const { api } = useStudioClient();
  const codexHome = useCodexHome();
  return useQuery({
    queryKey: inspectKeys.lint(version, path, codexHome),
    queryFn: codexHome ? async () => unwrap('inspect.lint', await api.inspect.lint({ version, path })) : skipToken,
  });
}

export function useHealth() {
  const { api } = useStudioClient();
  const codexHome = useCodexHome();
  return useQuery({
    queryKey: inspectKeys.health(codexHome),
    queryFn: codexHome ? async () => unwrap('inspect.health', await api.inspect.health({})) : skipToken,
  });
}

export function useRollouts(version: MemoryVersion | null) {
  const { api } = useStudioClient();
  const codexHome = useCodexHome();
  return useQuery({
    queryKey: inspectKeys.rollouts(version ?? 'v1', codexHome),
    queryFn: codexHome && version ? async () => unwrap('inspect.rollouts', await api.inspect.rollouts({ version })) : skipToken,
    // Switching versions keeps the old table on screen (marked as loading) instead of flashing an empty one.
    placeholderData: keepPreviousData,
  });
}

export function useProjects(version: MemoryVersion | null) {
  const { api } = useStudioClient();
  const codexHome = useCodexHome();
  return useQuery({
    queryKey: inspectKeys.projects(version ?? 'v1', codexHome),
    queryFn: codexHome && version ? async () => unwrap('inspect.projects', await api.inspect.projects({ version })) : skipToken,
    placeholderData: keepPreviousData,
  });
}

/** Follows a rollout summary (or a pointer to one) to its thread and session file. */
export function usePointer(version: MemoryVersion, file: string | null, threadIdHint?: string) {
  const { api } = useStudioClient();
  const codexHome = useCodexHome();
  return useQuery({
    queryKey: inspectKeys.pointer(version, file ?? '', threadIdHint ?? '', codexHome),
    queryFn:
      codexHome && file
        ? async () => unwrap('provenance.pointer', await api.provenance.pointer({ version, file, ...(threadIdHint ? { threadIdHint } : {}) }))
        : skipToken,
  });
}

export function useCitedBy(version: MemoryVersion, path: string | null) {
  const { api } = useStudioClient();
  const codexHome = useCodexHome();
  return useQuery({
    queryKey: inspectKeys.citedBy(version, path ?? '', codexHome),
    queryFn: codexHome && path ? async () => unwrap('provenance.citedBy', await api.provenance.citedBy({ version, path })) : skipToken,
  });
}

export function useNeverCited(version: MemoryVersion | null, enabled: boolean) {
  const { api } = useStudioClient();
  const codexHome = useCodexHome();
  return useQuery({
    queryKey: inspectKeys.neverCited(version ?? 'v1', codexHome),
    queryFn:
      codexHome && version && enabled ? async () => unwrap('provenance.neverCited', await api.provenance.neverCited({ version })) : skipToken,
  });
}

export function useSession(threadId: string) {
  const { api } = useStudioClient();
  const codexHome = useCodexHome();
  return useQuery({
    queryKey: inspectKeys.session(threadId, codexHome),
    queryFn: codexHome ? async () => unwrap('provenance.session', await api.provenance.session({ threadId })) : skipToken,
    gcTime: 60_000,
  });
}
