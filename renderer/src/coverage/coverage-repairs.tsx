// The repairs the Coverage view proposes: a failed extraction made claimable again, a stuck consolidation job reclaimed.
// Each is a proposal (its DB change shows as a row in the review), opened in the Review view as "Forget this session" does.
import type { UseMutationResult } from '@tanstack/react-query';
import { useMutation } from '@tanstack/react-query';
import type { MemoryVersion } from '../../../shared/domain';
import type { Proposal } from '../../../shared/review';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';

export interface RetryInput {
  version: MemoryVersion;
  threadId: string;
}
export interface ReclaimInput {
  version: MemoryVersion;
}

interface Repair<I> {
  mutation: UseMutationResult<Proposal, Error, I>;
  /** False while the host has no such channel: the button shows, disabled, and says why. */
  connected: boolean;
}

const NOT_CONNECTED = 'This build of Memory Studio cannot propose this repair yet.';

/**
 * `coverage.retry` and `coverage.reclaim` are not in shared/contract.ts yet. Once they are, each hook becomes
 * `{ mutation: useStudioMutation('coverage.retry'), connected: true }` (and the channel policy gives them `madeProposal`).
 */
function useUnconnected<I>(): Repair<I> {
  const mutation = useMutation<Proposal, Error, I>({
    mutationFn: () => Promise.reject(new Error(NOT_CONNECTED)),
  });
  return { mutation, connected: false };
}

export function useRetryRepair(): Repair<RetryInput> {
  return useUnconnected<RetryInput>();
}

export function useReclaimRepair(): Repair<ReclaimInput> {
  return useUnconnected<ReclaimInput>();
}

interface RepairButtonProps<I> {
  repair: Repair<I>;
  input: I;
  label: string;
  title: string;
  errorTitle: string;
  testId: string;
  onOpenProposal: (id: string) => void;
}

function RepairButton<I>({ repair, input, label, title, errorTitle, testId, onOpenProposal }: RepairButtonProps<I>) {
  const { mutation, connected } = repair;
  return (
    <div className="coverage-repair">
      <button
        type="button"
        className="button button-small"
        data-testid={testId}
        disabled={!connected || mutation.isPending}
        title={connected ? title : NOT_CONNECTED}
        onClick={() => mutation.mutate(input, { onSuccess: (proposal) => onOpenProposal(proposal.id) })}
      >
        {mutation.isPending ? 'Proposing…' : label}
      </button>
      {mutation.error ? <ErrorPanel compact title={errorTitle} error={toStudioError(mutation.error)} /> : null}
    </div>
  );
}

export function RetryButton({ onOpenProposal, ...input }: RetryInput & { onOpenProposal: (id: string) => void }) {
  const repair = useRetryRepair();
  return (
    <RepairButton
      repair={repair}
      input={input}
      label="Propose a retry"
      title="Proposes making this extraction claimable again at the next Codex session start; nothing changes until you apply it"
      errorTitle="Cannot propose a retry of this session"
      testId="propose-retry"
      onOpenProposal={onOpenProposal}
    />
  );
}

export function ReclaimButton({ onOpenProposal, ...input }: ReclaimInput & { onOpenProposal: (id: string) => void }) {
  const repair = useReclaimRepair();
  return (
    <RepairButton
      repair={repair}
      input={input}
      label="Propose reclaiming the consolidation job"
      title="Proposes releasing the stuck consolidation job so the next Phase 2 can take it; nothing changes until you apply it"
      errorTitle="Cannot propose reclaiming the consolidation job"
      testId="propose-reclaim"
      onOpenProposal={onOpenProposal}
    />
  );
}
