// The import wizard: its state and draft, the queries each step reads, Next/Back per step, and the step bodies.
import { useEffect, useRef, useState, type Dispatch } from 'react';
import type { HomeInfo, MemoryVersion } from '../../../shared/domain';
import type { ImportPlan } from '../../../shared/import';
import type { AppliedProposal, Proposal } from '../../../shared/review';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { LoadingState } from '../common/loading-state';
import type { ColorScheme } from '../hooks/use-color-scheme';
import { ApplyStep } from './apply-step';
import { DoneStep } from './done-step';
import { FilesStep } from './files-step';
import { skipToken, useStudioQuery } from '../api/studio-query';
import { ProjectsStep } from './projects-step';
import { ResumePrompt } from './resume-prompt';
import { ReviewStep } from './review-step';
import { SecretsStep } from './secrets-step';
import { SourcesStep } from './sources-step';
import { planStepBlocked, sourcesBlocked, type QueryLike } from './step-rules';
import { TargetStep } from './target-step';
import { reviewBlocked, useImportProposal, type ImportProposal } from './use-import-proposal';
import { useProposeStep, type ProposeStep } from './use-propose-step';
import { useWizardDraft, type SaveStatus } from './use-wizard-draft';
import { planInput, sourceOptions, type WizardAction, type WizardState } from './wizard-model';
import { nextStep, type ImportStep } from './wizard-steps';
import { WizardShell } from './wizard-shell';

export interface ImportWizardProps {
  active: boolean;
  home: HomeInfo | undefined;
  colorScheme: ColorScheme;
  onConsolidate: () => void;
  onOpenHistory: () => void;
}

const planSteps: readonly ImportStep[] = ['projects', 'files', 'secrets', 'target'];
const saveLabels: Record<SaveStatus, string> = {
  idle: '',
  saving: 'Saving the draft…',
  saved: 'Draft saved',
  error: 'The draft could not be saved',
};

function DraftStatus({ status }: { status: SaveStatus }) {
  return (
    <span className={status === 'error' ? 'small text-warn' : 'muted small'} data-testid="draft-status" data-draft={status}>
      {saveLabels[status]}
    </span>
  );
}

/** Steps 2–5: the plan's error, its first load, or the step itself. */
function PlanStepBody({
  step,
  plan,
  state,
  dispatch,
}: {
  step: ImportStep;
  plan: QueryLike<ImportPlan> & { refetch: () => unknown };
  state: WizardState;
  dispatch: Dispatch<WizardAction>;
}) {
  if (plan.error)
    return (
      <ErrorPanel
        title="Cannot work out the import plan"
        error={toStudioError(plan.error)}
        onRetry={() => void plan.refetch()}
        retrying={plan.isFetching}
      />
    );
  if (!plan.data) return <LoadingState label="Working out the plan…" />;
  if (step === 'projects') return <ProjectsStep plan={plan.data} choices={state.choices} dispatch={dispatch} />;
  if (step === 'files') return <FilesStep plan={plan.data} input={planInput(state)} choices={state.choices} dispatch={dispatch} />;
  if (step === 'secrets') return <SecretsStep plan={plan.data} choices={state.choices} dispatch={dispatch} />;
  return <TargetStep plan={plan.data} choices={state.choices} dispatch={dispatch} />;
}

/**
 * The roots whose memory DB the proposal enqueues consolidation in, when the wizard resumed without core's outcome: an
 * import's only DB changes are those, and core names each one's root.
 */
export function enqueuedBy(proposal: Proposal | undefined): MemoryVersion[] {
  return [...new Set((proposal?.dbChanges ?? []).flatMap((change) => (change.version ? [change.version] : [])))].sort();
}

/** After a successful Apply: the draft is done with, and the wizard shows Done. */
function useAppliedOutcome(applied: AppliedProposal | null, finish: () => void, dispatch: Dispatch<WizardAction>): AppliedProposal | null {
  const [kept, setKept] = useState<AppliedProposal | null>(null);
  const finishRef = useRef(finish);
  finishRef.current = finish;
  useEffect(() => {
    if (!applied) return;
    setKept(applied);
    finishRef.current();
    dispatch({ type: 'step', step: 'done' });
  }, [applied, dispatch]);
  return kept;
}

/** Why Next waits on this step, or null. */
function stepBlocked(
  state: WizardState,
  detection: Parameters<typeof sourcesBlocked>[0],
  plan: QueryLike<ImportPlan>,
  propose: ProposeStep,
  review: ImportProposal,
): string | null {
  const { step } = state;
  if (step === 'sources') return sourcesBlocked(detection);
  if (planSteps.includes(step)) return planStepBlocked(step, plan, state.choices);
  if (step !== 'review') return null;
  return propose.outcome?.nothingToImport ? 'Nothing to import.' : reviewBlocked(review);
}

export function ImportWizard({ active, home, colorScheme, onConsolidate, onOpenHistory }: ImportWizardProps) {
  const draft = useWizardDraft();
  const { state, dispatch } = draft;
  const ready = draft.phase === 'ready';
  const input = planInput(state);
  const detection = useStudioQuery('import.detect', state.step === 'sources' && ready ? sourceOptions(state) : skipToken);
  const propose = useProposeStep(state, input, dispatch);
  // Review lists the lint warnings from core's outcome; after a reload there is none, so the plan tells them again.
  const planWanted = planSteps.includes(state.step) || (state.step === 'review' && !propose.outcome);
  const plan = useStudioQuery('import.plan', planWanted && ready ? input : skipToken);
  const review = useImportProposal(state.proposalId);
  const applied = useAppliedOutcome(review.flow.applied, draft.finish, dispatch);
  const roots = Object.fromEntries((home?.roots ?? []).map((root) => [root.version, root.path])) as Partial<Record<MemoryVersion, string>>;
  const enqueue = propose.outcome?.enqueue ?? enqueuedBy(review.proposal);

  if (draft.phase === 'loading') return <LoadingState label="Looking for an unfinished import…" />;
  if (draft.phase === 'asking' && draft.offered)
    return <ResumePrompt draft={draft.offered} active={active} onResume={draft.resume} onStartOver={draft.startOver} />;

  const { step } = state;
  const goTo = (target: ImportStep) => dispatch({ type: 'step', step: target });
  const blocked = stepBlocked(state, detection, plan, propose, review);
  const onNext = () => {
    const next = nextStep(step);
    if (!next) return;
    // Decisions are saved after a short pause: Apply must see all of them. A failed save stays on this step, its error shown.
    if (step === 'review')
      void review.decisions.flush().then(
        () => goTo(next),
        () => undefined,
      );
    else goTo(next);
  };
  const proposeAgain = () => {
    dispatch({ type: 'proposal', id: null });
    goTo('review');
  };

  return (
    <WizardShell
      step={step}
      reached={state.reached}
      onStep={goTo}
      onNext={onNext}
      blocked={blocked}
      nextLabel={step === 'target' ? 'Propose →' : step === 'review' ? 'Next: Apply →' : undefined}
      hideNext={step === 'apply' || step === 'done'}
      hideBack={step === 'done'}
      active={active}
      status={step === 'done' ? null : <DraftStatus status={draft.saveStatus} />}
    >
      {step === 'sources' ? <SourcesStep options={state.options} detection={detection} dispatch={dispatch} /> : null}
      {planSteps.includes(step) ? <PlanStepBody step={step} plan={plan} state={state} dispatch={dispatch} /> : null}
      {step === 'review' ? (
        <ReviewStep
          review={review}
          outcome={propose.outcome}
          lint={propose.outcome?.lint ?? plan.data?.lint ?? []}
          proposing={propose.proposing}
          proposeError={propose.error}
          onRetryPropose={propose.retry}
          colorScheme={colorScheme}
        />
      ) : null}
      {step === 'apply' ? <ApplyStep review={review} enqueue={enqueue} onProposeAgain={proposeAgain} /> : null}
      {step === 'done' ? (
        <DoneStep
          applied={applied}
          roots={roots}
          enqueue={enqueue}
          onConsolidate={onConsolidate}
          onOpenHistory={onOpenHistory}
          onRestart={draft.restart}
        />
      ) : null}
    </WizardShell>
  );
}
