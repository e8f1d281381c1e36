// react-query hooks for the `import.*` channels: detection, the plan, the proposal, and the wizard's draft.
import { keepPreviousData, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ImportDraft, ImportPlanInput, ImportSourceOptions } from '../../../shared/import';
import { useStudioClient } from '../api/client';
import { useHome } from '../api/queries';
import { reviewKeys } from '../api/review-queries';
import { unwrap } from '../api/studio-request-error';

/** Keys end with the Codex home like every other key; the input is part of the key, so each choice is its own answer. */
export const importKeys = {
  all: ['import'] as const,
  draft: (codexHome: string) => ['import', 'draft', codexHome] as const,
  detect: (options: ImportSourceOptions, codexHome: string) => ['import', 'detect', options, codexHome] as const,
  plan: (input: ImportPlanInput, codexHome: string) => ['import', 'plan', input, codexHome] as const,
  fileText: (input: ImportPlanInput, project: string, relPath: string, codexHome: string) => ['import', 'fileText', input, project, relPath, codexHome] as const,
};

function useCodexHome(): string | undefined {
  return useHome().data?.codexHome;
}

export function useImportDraft() {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: importKeys.draft(home ?? ''),
    queryFn: home ? async () => unwrap('import.draft', await api.import.draft({})) : skipToken,
    // The draft is read once, when the wizard opens; later the wizard's own state is the truth.
    staleTime: Infinity,
  });
}

export function useSaveDraft() {
  const { api } = useStudioClient();
  return useMutation({
    mutationFn: async (draft: Omit<ImportDraft, 'savedAt'>) => unwrap('import.saveDraft', await api.import.saveDraft({ draft })),
  });
}

export function useClearDraft() {
  const { api } = useStudioClient();
  return useMutation({ mutationFn: async () => unwrap('import.clearDraft', await api.import.clearDraft({})) });
}

/** What a source holds; `null` options (nothing chosen yet) ask nothing. */
export function useDetection(options: ImportSourceOptions | null) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: options ? importKeys.detect(options, home ?? '') : ['import', 'detect', 'none'],
    queryFn: home && options ? async () => unwrap('import.detect', await api.import.detect(options)) : skipToken,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** The plan for the current choices; the previous answer stays on screen while the next one is worked out. */
export function useImportPlan(input: ImportPlanInput | null) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: input ? importKeys.plan(input, home ?? '') : ['import', 'plan', 'none'],
    queryFn: home && input ? async () => unwrap('import.plan', await api.import.plan(input)) : skipToken,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** One file's texts, asked for only when a large plan left them out (`textsOmitted`). */
export function useFileText(input: ImportPlanInput, project: string, relPath: string, enabled: boolean) {
  const { api } = useStudioClient();
  const home = useCodexHome();
  return useQuery({
    queryKey: importKeys.fileText(input, project, relPath, home ?? ''),
    queryFn: home && enabled ? async () => unwrap('import.fileText', await api.import.fileText({ plan: input, project, relPath })) : skipToken,
  });
}

/** Makes the pending proposal; it lands in the review cache so the embedded review opens at once. */
export function useProposeImport() {
  const { api } = useStudioClient();
  const queryClient = useQueryClient();
  const home = useCodexHome() ?? '';
  return useMutation({
    mutationFn: async (input: ImportPlanInput) => unwrap('import.propose', await api.import.propose(input)),
    onSuccess: (outcome) => {
      if (outcome.proposal) queryClient.setQueryData(reviewKeys.proposal(outcome.proposal.id, home), outcome.proposal);
      void queryClient.invalidateQueries({ queryKey: reviewKeys.list(home) });
    },
  });
}
