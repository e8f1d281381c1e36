// react-query hooks for the doctor.* channels: the report, fixes and promotions (proposals), and the model's help.
import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DoctorOptions } from '../../../shared/doctor';
import type { DoctorFile } from '../../../shared/doctor';
import type { MemoryVersion } from '../../../shared/domain';
import { useStudioClient } from '../api/client';
import { useHome } from '../api/queries';
import { invalidateReview } from '../api/review-queries';
import { unwrap } from '../api/studio-request-error';

/** The report depends on every memory file and on the projects' AGENTS.md: any change refreshes it. */
export const doctorKeys = {
  all: ['doctor.run'] as const,
  report: (options: DoctorOptions, codexHome: string) => ['doctor.run', options, codexHome] as const,
};

export function useDoctorReport(options: DoctorOptions, enabled: boolean) {
  const { api } = useStudioClient();
  const codexHome = useHome().data?.codexHome ?? '';
  return useQuery({
    queryKey: doctorKeys.report(options, codexHome),
    queryFn: codexHome && enabled ? async () => unwrap('doctor.run', await api.doctor.run(options)) : skipToken,
    // A check of a heavy home takes seconds: keep showing the last report while the next one runs.
    placeholderData: (previous) => previous,
    staleTime: 30_000,
  });
}

/** A made proposal changes the inbox: refresh the review queries (the report itself changes only once it is applied). */
function useProposalMade() {
  const queryClient = useQueryClient();
  return () => void invalidateReview(queryClient);
}

export function useDoctorFix() {
  const { api } = useStudioClient();
  const made = useProposalMade();
  return useMutation({
    mutationFn: async (input: DoctorOptions & { fixId: string; project?: string }) => unwrap('doctor.fix', await api.doctor.fix(input)),
    onSuccess: made,
  });
}

export function useDoctorPromote() {
  const { api } = useStudioClient();
  const made = useProposalMade();
  return useMutation({
    mutationFn: async (input: { version: MemoryVersion; file: DoctorFile; entryId: string; project?: string }) => unwrap('doctor.promote', await api.doctor.promote(input)),
    onSuccess: made,
  });
}

export function useExplain() {
  const { api } = useStudioClient();
  return useMutation({ mutationFn: async (input: DoctorOptions & { findingId: string }) => unwrap('doctor.explain', await api.doctor.explain(input)) });
}

export function useModelMerge() {
  const { api } = useStudioClient();
  const made = useProposalMade();
  return useMutation({
    mutationFn: async (input: DoctorOptions & { findingId: string }) => unwrap('doctor.modelMerge', await api.doctor.modelMerge(input)),
    onSuccess: made,
  });
}
