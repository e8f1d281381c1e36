// react-query hooks for the review and history channels: proposals, decisions, Apply, history, revert, baseline.
import { skipToken, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { MemoryVersion } from '../../../shared/domain';
import type { DecisionMap, EditMap, Proposal } from '../../../shared/review';
import { useStudioClient } from './client';
import { useHome } from './queries';
import { unwrap } from './studio-request-error';

/** Review keys end with the home, like the file keys; the short prefixes are what invalidation uses. */
export const reviewKeys = {
  all: ['review'] as const,
  list: (codexHome: string) => ['review', 'list', codexHome] as const,
  proposal: (id: string, codexHome: string) => ['review', 'get', id, codexHome] as const,
  result: (id: string, codexHome: string) => ['review', 'result', id, codexHome] as const,
  /** Under `result`, so whatever refreshes the result refreshes its texts too. */
  resultContent: (id: string, codexHome: string) => ['review', 'result', id, codexHome, 'content'] as const,
  fileTexts: (id: string, ord: number, codexHome: string) => ['review', 'fileTexts', id, ord, codexHome] as const,
  stale: (id: string, codexHome: string) => ['review', 'stale', id, codexHome] as const,
  mergeTexts: (id: string, ord: number, codexHome: string) => ['review', 'mergeTexts', id, ord, codexHome] as const,
  blocks: (id: string, ord: number, codexHome: string) => ['review', 'blocks', id, ord, codexHome] as const,
  history: ['history'] as const,
  historyList: (version: MemoryVersion | null, path: string | null, codexHome: string) => ['history', 'list', version, path, codexHome] as const,
  historyDiff: (from: string, to: string, path: string, codexHome: string) => ['history', 'diff', from, to, path, codexHome] as const,
  baseline: (version: MemoryVersion, codexHome: string) => ['history', 'baseline', version, codexHome] as const,
  entryDiff: (entryId: string, path: string, root: string, codexHome: string) => ['history', 'entryDiff', entryId, path, root, codexHome] as const,
  baselineFile: (version: MemoryVersion, path: string, codexHome: string) => ['history', 'baselineFile', version, path, codexHome] as const,
};

/** Anything written, decided or rejected can change every review and history answer: refresh them all. */
export function invalidateReview(queryClient: QueryClient): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
    queryClient.invalidateQueries({ queryKey: reviewKeys.history }),
  ]).then(() => undefined);
}

function useCodexHome(): string | undefined {
  return useHome().data?.codexHome;
}

export function useProposals() {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: reviewKeys.list(home ?? ''),
    queryFn: home ? async () => unwrap('review.list', await api.review.list({})) : skipToken,
  });
}

export function useProposal(id: string | null) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: reviewKeys.proposal(id ?? '', home ?? ''),
    queryFn: home && id ? async () => unwrap('review.get', await api.review.get({ id })) : skipToken,
  });
}

/**
 * What Apply would do with the decisions saved so far, without the texts: refetched after every decision, so it must
 * stay small (a consolidation's result is megabytes of text; the Result view asks for that with `useProposalResultContent`).
 */
export function useProposalResult(id: string | null) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: reviewKeys.result(id ?? '', home ?? ''),
    queryFn: home && id ? async () => unwrap('review.result', await api.review.result({ id, content: false })) : skipToken,
  });
}

/** Exactly what Apply would write, texts included: only while the Result view is open. */
export function useProposalResultContent(id: string | null) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: reviewKeys.resultContent(id ?? '', home ?? ''),
    queryFn: home && id ? async () => unwrap('review.result', await api.review.result({ id })) : skipToken,
  });
}

/** One file's base and proposed content, asked only when a view shows them (a proposal's answer has hunks only). */
export function useFileTexts(id: string | null, ord: number | null) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: reviewKeys.fileTexts(id ?? '', ord ?? -1, home ?? ''),
    queryFn: home && id && ord !== null ? async () => unwrap('review.fileTexts', await api.review.fileTexts({ id, ord })) : skipToken,
    // A file's texts change only with a rebase or a revision, which refresh them.
    staleTime: Infinity,
  });
}

/** The same texts, asked from an event handler (starting to edit the result). */
export function useFetchFileTexts() {
  const { api } = useStudioClient();
  const home = useCodexHome() ?? '';
  const queryClient = useQueryClient();
  return (id: string, ord: number) =>
    queryClient.fetchQuery({
      queryKey: reviewKeys.fileTexts(id, ord, home),
      queryFn: async () => unwrap('review.fileTexts', await api.review.fileTexts({ id, ord })),
      staleTime: Infinity,
    });
}

/**
 * Which files of a pending proposal changed on disk since it was made: refetched on every `workspace.changed` event
 * (the review invalidation), so the warning appears as soon as the watcher sees the change, before Apply is pressed.
 */
export function useStaleness(id: string | null, pending: boolean) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: reviewKeys.stale(id ?? '', home ?? ''),
    queryFn: home && id && pending ? async () => unwrap('review.stale', await api.review.stale({ id })) : skipToken,
  });
}

/** The three sides of a rebased file's conflicts (merge base, disk at the rebase, the proposal's own version). */
export function useMergeTexts(id: string | null, ord: number | null) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: reviewKeys.mergeTexts(id ?? '', ord ?? -1, home ?? ''),
    queryFn: home && id && ord !== null ? async () => unwrap('review.mergeTexts', await api.review.mergeTexts({ id, ord })) : skipToken,
  });
}

/** One file's blocks matched between base and proposal (the structured view); kept while the hunks do not change. */
export function useProposalBlocks(id: string | null, ord: number | null) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: reviewKeys.blocks(id ?? '', ord ?? -1, home ?? ''),
    queryFn: home && id && ord !== null ? async () => unwrap('review.blocks', await api.review.blocks({ id, ord })) : skipToken,
    staleTime: 60_000,
  });
}

/** Stores a proposal answer in the cache and refreshes the list and results around it. */
function useProposalSettled() {
  const queryClient = useQueryClient();
  const home = useCodexHome() ?? '';
  return (proposal: Proposal) => {
    queryClient.setQueryData(reviewKeys.proposal(proposal.id, home), proposal);
    void queryClient.invalidateQueries({ queryKey: reviewKeys.list(home) });
    void queryClient.invalidateQueries({ queryKey: reviewKeys.result(proposal.id, home) });
  };
}

export function useDecide() {
  const { api } = useStudioClient();
  const settled = useProposalSettled();
  return useMutation({
    mutationFn: async (input: { id: string; files: Array<{ ord: number; decisions: DecisionMap; edits?: EditMap }> }) =>
      unwrap('review.decide', await api.review.decide(input)),
    onSuccess: settled,
  });
}

export function useApply() {
  const { api } = useStudioClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => unwrap('review.apply', await api.review.apply({ id })),
    onSettled: () => invalidateReview(queryClient),
  });
}

export function useRejectProposal() {
  const { api } = useStudioClient();
  const settled = useProposalSettled();
  return useMutation({
    mutationFn: async (input: { id: string; note?: string }) => unwrap('review.reject', await api.review.reject(input)),
    onSuccess: settled,
  });
}

/** Three-way rebase onto the disk: the outcome says per file what was merged and which conflicts need a decision. */
export function useRebase() {
  const { api } = useStudioClient();
  const settled = useProposalSettled();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => unwrap('review.rebase', await api.review.rebase({ id })),
    onSuccess: (outcome) => {
      settled(outcome.proposal);
      void queryClient.invalidateQueries({ queryKey: ['review', 'stale', outcome.proposal.id] });
      void queryClient.invalidateQueries({ queryKey: ['review', 'mergeTexts', outcome.proposal.id] });
      void queryClient.invalidateQueries({ queryKey: ['review', 'blocks', outcome.proposal.id] });
      void queryClient.invalidateQueries({ queryKey: ['review', 'fileTexts', outcome.proposal.id] });
    },
  });
}

/** Replaces one file's proposed content (fixing a result that fails validation); its decisions reset. */
export function useRevise() {
  const { api } = useStudioClient();
  const settled = useProposalSettled();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { id: string; ord: number; content: string }) => unwrap('review.revise', await api.review.revise(input)),
    onSuccess: (proposal) => {
      settled(proposal);
      void queryClient.invalidateQueries({ queryKey: ['review', 'blocks', proposal.id] });
      void queryClient.invalidateQueries({ queryKey: ['review', 'fileTexts', proposal.id] });
    },
  });
}

/** Every way a proposal is born (edit, note, redaction, forget, revert) ends the same way: cached, listed. */
function useCreateProposal<I>(create: (input: I) => Promise<Proposal>) {
  const settled = useProposalSettled();
  return useMutation({ mutationFn: create, onSuccess: settled });
}

export function usePropose() {
  const { api } = useStudioClient();
  return useCreateProposal(async (input: { version: MemoryVersion; path: string; content: string; title?: string; description?: string }) =>
    unwrap('review.propose', await api.review.propose(input)),
  );
}

export function useNote() {
  const { api } = useStudioClient();
  return useCreateProposal(async (input: { version: MemoryVersion; slug: string; text: string }) => unwrap('review.note', await api.review.note(input)));
}

export function useForget() {
  const { api } = useStudioClient();
  return useCreateProposal(async (threadId: string) => unwrap('review.forget', await api.review.forget({ threadId })));
}

export function useRevert() {
  const { api } = useStudioClient();
  return useCreateProposal(async (entryId: string) => unwrap('history.revert', await api.history.revert({ entryId })));
}

export function useHistoryList(version: MemoryVersion | null, path: string | null) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: reviewKeys.historyList(version, path, home ?? ''),
    queryFn: home
      ? async () => unwrap('history.list', await api.history.list({ ...(version ? { version } : {}), ...(path ? { path } : {}) }))
      : skipToken,
  });
}

export function useHistoryDiff(request: { from: string; to: string; path: string } | null) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: request ? reviewKeys.historyDiff(request.from, request.to, request.path, home ?? '') : ['history', 'diff', 'none'],
    queryFn: home && request ? async () => unwrap('history.diff', await api.history.diff(request)) : skipToken,
  });
}

export function useSinceBaseline(version: MemoryVersion | null) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: reviewKeys.baseline(version ?? 'v1', home ?? ''),
    queryFn: home && version ? async () => unwrap('history.sinceBaseline', await api.history.sinceBaseline({ version })) : skipToken,
    retry: false,
  });
}

/** What one history entry did to one file: before -> after, with hunks. */
export function useHistoryEntryDiff(request: { entryId: string; path: string; root: string } | null) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: request ? reviewKeys.entryDiff(request.entryId, request.path, request.root, home ?? '') : ['history', 'entryDiff', 'none'],
    queryFn: home && request ? async () => unwrap('history.entryDiff', await api.history.entryDiff(request)) : skipToken,
  });
}

/** One file of "since the last consolidation": the baseline's text against the live one. */
export function useBaselineFile(version: MemoryVersion | null, path: string | null) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: reviewKeys.baselineFile(version ?? 'v1', path ?? '', home ?? ''),
    queryFn: home && version && path ? async () => unwrap('history.baselineFile', await api.history.baselineFile({ version, path })) : skipToken,
    retry: false,
  });
}
