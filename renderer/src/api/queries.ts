// react-query hooks, one per channel, each unwrapping the Result so errors reach the UI as StudioRequestError.
import {
  keepPreviousData,
  skipToken,
  useMutation,
  useQueries,
  useQuery,
  useQueryClient,
  type UseQueryResult,
} from '@tanstack/react-query';
import type { FileContent, FileList, HomeInfo, MemoryVersion } from '../../../shared/domain';
import { useStudioClient } from './client';
import { queryKeys } from './query-keys';
import { unwrap } from './studio-request-error';

export interface FileSelection {
  /** The home the path belongs to: a selection from a previous home is ignored, not re-read. */
  codexHome: string;
  version: MemoryVersion;
  path: string;
}

export function useAppInfo() {
  const { api } = useStudioClient();
  return useQuery({
    queryKey: queryKeys.appInfo,
    queryFn: async () => unwrap('app.info', await api.app.info({})),
    staleTime: Infinity,
  });
}

export function useHome() {
  const { api } = useStudioClient();
  return useQuery({
    queryKey: queryKeys.home,
    queryFn: async () => unwrap('home.get', await api.home.get({})),
  });
}

/** Roots that exist on disk, in a stable order (v1 then v2). */
export function presentRoots(home: HomeInfo | undefined) {
  return (home?.roots ?? []).filter((root) => root.exists).sort((a, b) => a.version.localeCompare(b.version));
}

/** One root's file list, keyed by the current home (see query-keys). */
export function useFileList(version: MemoryVersion) {
  const { api } = useStudioClient();
  const codexHome = useHome().data?.codexHome;
  return useQuery({
    queryKey: queryKeys.fileList(version, codexHome ?? ''),
    queryFn: codexHome ? async () => unwrap('workspace.list', await api.workspace.list({ version })) : skipToken,
  });
}

/** The file lists of every root present in the home, in the order of `presentRoots`. */
export interface FileListState {
  data: FileList | undefined;
  error: Error | null;
  isFetching: boolean;
  refetch: () => Promise<unknown>;
}

// Module-level so useQueries can keep the combined array stable while nothing changed.
function combineLists(results: UseQueryResult<FileList>[]): FileListState[] {
  return results.map((result) => ({
    data: result.data,
    error: result.error,
    isFetching: result.isFetching,
    // The observer's own refetch is a stable reference, which keeps the combined result stable too.
    refetch: result.refetch,
  }));
}

export function useFileLists(home: HomeInfo | undefined): FileListState[] {
  const { api } = useStudioClient();
  return useQueries({
    queries: presentRoots(home).map((root) => ({
      queryKey: queryKeys.fileList(root.version, home?.codexHome ?? ''),
      queryFn: async () => unwrap('workspace.list', await api.workspace.list({ version: root.version })),
    })),
    combine: combineLists,
  });
}

/**
 * The open file. keepPreviousData keeps the last file on screen while the next one loads,
 * so switching files never flashes an empty pane.
 */
export function useFile(version: MemoryVersion | null, path: string | null): UseQueryResult<FileContent> {
  const { api } = useStudioClient();
  const codexHome = useHome().data?.codexHome;
  const selection = version && path && codexHome ? { version, path, codexHome } : null;
  return useQuery({
    queryKey: selection ? queryKeys.file(selection.version, selection.path, selection.codexHome) : ['workspace.read', 'none'],
    queryFn: selection
      ? async () => unwrap('workspace.read', await api.workspace.read({ version: selection.version, path: selection.path }))
      : skipToken,
    placeholderData: keepPreviousData,
    // Contents can be megabytes each; do not keep every file ever opened.
    gcTime: 60_000,
  });
}

/** Switches the session to a generated demo home, then refetches everything for it. */
export function useOpenDemo() {
  const { api } = useStudioClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => unwrap('home.openDemo', await api.home.openDemo({})),
    onSuccess: async (home) => {
      queryClient.setQueryData(queryKeys.home, home);
      await queryClient.invalidateQueries();
    },
  });
}
