// The wizard's frame: the step list, the focused step heading, the step's body and the Back/Next bar with its reason.
import { useEffect, useRef, type ReactNode } from 'react';
import { importSteps, previousStep, stepIndex, stepLabels, stepTitle, type ImportStep } from './wizard-steps';
import { useWizardKeys } from './use-wizard-keys';

export interface WizardShellProps {
  step: ImportStep;
  /** Steps the person may jump back to from the step list (those already passed). */
  reached: ImportStep;
  onStep: (step: ImportStep) => void;
  onNext: () => void;
  /** Why Next is disabled, or null when it is allowed. */
  blocked: string | null;
  nextLabel?: string;
  /** Hide Next (the last step) or Back (after Apply, there is no way back). */
  hideNext?: boolean;
  hideBack?: boolean;
  active: boolean;
  status?: ReactNode;
  children: ReactNode;
}

function StepList({ step, reached, onStep }: Pick<WizardShellProps, 'step' | 'reached' | 'onStep'>) {
  const current = stepIndex(step);
  const furthest = stepIndex(reached);
  return (
    <nav className="wizard-steps" aria-label="Import steps">
      <ol>
        {importSteps.map((item, index) => {
          const state = index === current ? 'current' : index < current ? 'done' : 'todo';
          return (
            <li key={item} className={`wizard-step wizard-step-${state}`}>
              <button
                type="button"
                className="wizard-step-button"
                data-testid="wizard-step"
                data-step={item}
                aria-current={index === current ? 'step' : undefined}
                disabled={index > furthest || index === current}
                onClick={() => onStep(item)}
              >
                <span className="wizard-step-number" aria-hidden="true">
                  {index + 1}
                </span>
                {stepLabels[item]}
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

/**
 * Every step change moves focus to the new step's heading, so a screen reader announces where the person is; unless the
 * step put it in its body already (Review lands on its first undecided hunk, in an effect that ran before this one).
 */
function useStepFocus(step: ImportStep, active: boolean) {
  const heading = useRef<HTMLHeadingElement>(null);
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (active && !body.current?.contains(document.activeElement)) heading.current?.focus();
  }, [step, active]);
  return { heading, body };
}

export function WizardShell({
  step,
  reached,
  onStep,
  onNext,
  blocked,
  nextLabel,
  hideNext,
  hideBack,
  active,
  status,
  children,
}: WizardShellProps) {
  const container = useRef<HTMLElement>(null);
  const { heading, body } = useStepFocus(step, active);
  const back = previousStep(step);
  const canBack = back !== null && !hideBack;
  const canNext = !hideNext && blocked === null;
  useWizardKeys(container, active, { next: onNext, back: () => back && onStep(back), canNext, canBack });

  return (
    <section ref={container} className="wizard" data-testid="import-wizard" data-step={step} aria-labelledby="wizard-heading">
      <StepList step={step} reached={reached} onStep={onStep} />
      <div className="wizard-main">
        <header className="wizard-header">
          <h2 id="wizard-heading" ref={heading} tabIndex={-1} data-testid="wizard-heading">
            {stepTitle(step)}
          </h2>
          {status}
        </header>
        <div className="wizard-body" ref={body}>
          {children}
        </div>
        <footer className="wizard-footer">
          {canBack ? (
            <button
              type="button"
              className="button"
              data-testid="wizard-back"
              aria-keyshortcuts="Alt+ArrowLeft"
              title="Back (Alt+←)"
              onClick={() => onStep(back)}
            >
              ← Back to {stepLabels[back]}
            </button>
          ) : null}
          <span className="wizard-footer-reason muted" id="wizard-blocked" data-testid="wizard-blocked" role="status">
            {hideNext ? '' : (blocked ?? '')}
          </span>
          {hideNext ? null : (
            <span className="wizard-keys muted small">
              <kbd>Alt</kbd>+<kbd>←</kbd>/<kbd>→</kbd> Back/Next · <kbd>Enter</kbd> Next
            </span>
          )}
          {hideNext && canBack ? (
            <span className="wizard-keys muted small">
              <kbd>Alt</kbd>+<kbd>←</kbd> Back
            </span>
          ) : null}
          {hideNext ? null : (
            <button
              type="button"
              className="button button-primary"
              data-testid="wizard-next"
              aria-keyshortcuts="Alt+ArrowRight Enter"
              aria-describedby={blocked ? 'wizard-blocked' : undefined}
              title="Next (Alt+→ or Enter)"
              disabled={!canNext}
              onClick={onNext}
            >
              {nextLabel ?? 'Next →'}
            </button>
          )}
        </footer>
      </div>
    </section>
  );
}
