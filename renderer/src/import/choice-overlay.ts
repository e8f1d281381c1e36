// The person's latest choices laid over the last plan, so a checkbox or radio shows its new state before the plan is recomputed.
import type { ImportChoices, PlanFile, PlanProject, SecretAction, SecretFinding } from '../../../shared/import';

export function projectIncluded(choices: ImportChoices, project: PlanProject): boolean {
  return choices.projects?.find((choice) => choice.key === project.key)?.include ?? project.included;
}

export function fileIncluded(choices: ImportChoices, projectKey: string, file: PlanFile): boolean {
  return choices.files?.find((choice) => choice.project === projectKey && choice.relPath === file.relPath)?.include ?? file.included;
}

export function findingAction(choices: ImportChoices, projectKey: string, relPath: string, finding: SecretFinding): SecretAction | null {
  const mine = (choices.secrets ?? []).filter((choice) => choice.project === projectKey && choice.relPath === relPath);
  return (
    mine.find((choice) => choice.findingId === finding.id)?.action ??
    mine.find((choice) => choice.findingId === undefined)?.action ??
    finding.action
  );
}
