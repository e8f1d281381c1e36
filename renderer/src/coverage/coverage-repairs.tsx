// The repairs the Coverage view proposes: a failed extraction made claimable again, a stuck consolidation job reclaimed.
// Each is a proposal (its DB change shows as a row in the review), opened in the Review view as "Forget this session" does.
import type { MemoryVersion } from '../../../shared/domain';
import { useStudioMutation } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';

export interface RetryInput {
  version: MemoryVersion;
  threadId: string;
}
export interface ReclaimInput {
  version: MemoryVersion;
}

/** What a repair button needs of its channel's mutation; the answer is the proposal to open in the Review view. */
interface Repair<I> {
  mutate: (input: I, options: { onSuccess: (proposal: { id: string }) => void }) => void;
  isPending: boolean;
  error: Error | null;
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
  return (
    <div className="coverage-repair">
      <button
        type="button"
        className="button button-small"
        data-testid={testId}
        disabled={repair.isPending}
        title={title}
        onClick={() => repair.mutate(input, { onSuccess: (proposal) => onOpenProposal(proposal.id) })}
      >
        {repair.isPending ? 'Proposing…' : label}
      </button>
      {repair.error ? <ErrorPanel compact title={errorTitle} error={toStudioError(repair.error)} /> : null}
    </div>
  );
}

export function RetryButton({ onOpenProposal, ...input }: RetryInput & { onOpenProposal: (id: string) => void }) {
  const repair = useStudioMutation('coverage.retry');
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
  const repair = useStudioMutation('coverage.reclaim');
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
