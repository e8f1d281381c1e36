// The home's roots that exist on disk and their file lists, combined into a stable array for the sidebar.
import type { UseQueryResult } from '@tanstack/react-query';
import type { FileList, HomeInfo } from '../../../shared/domain';
import { useStudioQueries } from './studio-query';

/** Roots that exist on disk, in a stable order (v1 then v2). */
export function presentRoots(home: HomeInfo | undefined) {
  return (home?.roots ?? []).filter((root) => root.exists).sort((a, b) => a.version.localeCompare(b.version));
}

/** One root's file list as the sidebar needs it. */
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

/** The file lists of every root present in the home, in the order of `presentRoots`. */
export function useFileLists(home: HomeInfo | undefined): FileListState[] {
  return useStudioQueries(
    'workspace.list',
    presentRoots(home).map((root) => ({ version: root.version })),
    combineLists,
  );
}
