// Why Next is not allowed on a step (or null), from the detection, the plan and the choices.
import type { Detection, ImportChoices, ImportPlan } from '../../../shared/import';
import { filesBlocked } from './files-step';
import { projectsBlocked } from './projects-step';
import { secretsBlocked } from './secrets-step';
import type { ImportStep } from './wizard-steps';

export interface QueryLike<T> {
  data: T | undefined;
  error: Error | null;
  isFetching: boolean;
}

export function sourcesBlocked(detection: QueryLike<Detection>): string | null {
  if (detection.error) return 'The source could not be read: fix the folder or retry.';
  if (!detection.data || detection.isFetching) return 'Looking for memory…';
  if (detection.data.projects.length === 0) return 'Nothing to import was found here: pick another folder or source.';
  return null;
}

/** Steps 2–5 all read the plan; Next waits while it is being recomputed after a choice. */
export function planStepBlocked(step: ImportStep, plan: QueryLike<ImportPlan>, choices: ImportChoices): string | null {
  if (plan.error) return 'The plan could not be worked out: see the error above.';
  if (!plan.data || plan.isFetching) return 'Working out the plan…';
  if (step === 'projects') return projectsBlocked(plan.data);
  if (step === 'files') return filesBlocked(plan.data);
  if (step === 'secrets') return secretsBlocked(plan.data, choices);
  if (step === 'target' && plan.data.unresolvedFindings > 0) return 'A secret finding is unresolved: go back to Secrets.';
  return null;
}
