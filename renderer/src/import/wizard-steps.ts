// The import wizard's steps in order (the draft's step list from shared/), their labels, and moving between them.
import { importSteps, type ImportStep } from '../../../shared/import';

export { importSteps, type ImportStep };

export const stepLabels: Record<ImportStep, string> = {
  sources: 'Sources',
  projects: 'Projects',
  files: 'Files',
  secrets: 'Secrets',
  target: 'Target',
  review: 'Review',
  apply: 'Apply',
  done: 'Done',
};

export function stepIndex(step: ImportStep): number {
  return importSteps.indexOf(step);
}

export function nextStep(step: ImportStep): ImportStep | null {
  return importSteps[stepIndex(step) + 1] ?? null;
}

export function previousStep(step: ImportStep): ImportStep | null {
  const index = stepIndex(step);
  return index > 0 ? (importSteps[index - 1] ?? null) : null;
}

/** "Step 3 of 8: Files", for headings and the live region. */
export function stepTitle(step: ImportStep): string {
  return `Step ${stepIndex(step) + 1} of ${importSteps.length}: ${stepLabels[step]}`;
}
