// react-query hooks for search.* and index.*: ranked hits, the palette's places, projects, and the index's state.
import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { IndexStatus, SearchInput } from '../../../shared/search';
import { useStudioClient } from './client';
import { useHome } from './queries';
import { unwrap } from './studio-request-error';

export const searchKeys = {
  all: ['search'] as const,
  query: (input: SearchInput, codexHome: string) => ['search', 'query', input, codexHome] as const,
  blocks: (query: string, codexHome: string) => ['search', 'blocks', query, codexHome] as const,
  projects: (codexHome: string) => ['search', 'projects', codexHome] as const,
  status: ['index.status'] as const,
};

export function useSearch(input: SearchInput) {
  const { api } = useStudioClient();
  const codexHome = useHome().data?.codexHome ?? '';
  const ready = codexHome !== '' && input.query.trim() !== '';
  return useQuery({
    queryKey: searchKeys.query(input, codexHome),
    queryFn: ready ? async () => unwrap('search.query', await api.search.query(input)) : skipToken,
    // Typing keeps the previous hits on screen until the next ones arrive.
    placeholderData: keepPreviousData,
  });
}

export function useBlocks(query: string) {
  const { api } = useStudioClient();
  const codexHome = useHome().data?.codexHome ?? '';
  return useQuery({
    queryKey: searchKeys.blocks(query, codexHome),
    queryFn: codexHome && query.trim() ? async () => unwrap('search.blocks', await api.search.blocks({ query, limit: 12 })) : skipToken,
    placeholderData: keepPreviousData,
  });
}

export function useSearchProjects() {
  const { api } = useStudioClient();
  const codexHome = useHome().data?.codexHome ?? '';
  return useQuery({
    queryKey: searchKeys.projects(codexHome),
    queryFn: codexHome ? async () => unwrap('search.projects', await api.search.projects({})) : skipToken,
  });
}

export function useIndexStatus() {
  const { api } = useStudioClient();
  return useQuery({ queryKey: searchKeys.status, queryFn: async () => unwrap('index.status', await api.index.status({})) });
}

export function useIndexControl() {
  const { api } = useStudioClient();
  const queryClient = useQueryClient();
  const store = (status: IndexStatus) => queryClient.setQueryData(searchKeys.status, status);
  const cancel = useMutation({ mutationFn: async () => unwrap('index.cancel', await api.index.cancel({})), onSuccess: store });
  const resume = useMutation({ mutationFn: async () => unwrap('index.resume', await api.index.resume({})), onSuccess: store });
  return { cancel, resume };
}

/** An `index.progress` event: the status bar follows it; a finished build refreshes every search on screen. */
export function applyIndexStatus(queryClient: QueryClient, status: IndexStatus): void {
  const before = queryClient.getQueryData<IndexStatus>(searchKeys.status);
  queryClient.setQueryData(searchKeys.status, status);
  if (status.state === 'ready' && before?.state !== 'ready') void queryClient.invalidateQueries({ queryKey: searchKeys.all });
}
