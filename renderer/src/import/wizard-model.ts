// The wizard's state (step, source options, the person's choices, the proposal) as a reducer, and the draft it saves.
import type { ImportChoices, ImportDraft, ImportPlanInput, ImportSource, ImportSourceOptions, SecretAction } from '../../../shared/import';
import { stepIndex, type ImportStep } from './wizard-steps';

export interface WizardState {
  step: ImportStep;
  /** The furthest step reached: the step list lets the person jump back to any step up to it. */
  reached: ImportStep;
  options: ImportSourceOptions;
  choices: ImportChoices;
  /** The pending proposal made at the Review step; any later change of a choice drops it (it no longer matches). */
  proposalId: string | null;
}

export type WizardAction =
  | { type: 'step'; step: ImportStep }
  | { type: 'source'; from: ImportSource }
  | { type: 'options'; patch: Partial<Omit<ImportSourceOptions, 'from'>> }
  | { type: 'project'; key: string; include?: boolean; cwd?: string | null }
  | { type: 'file'; project: string; relPath: string; include: boolean }
  /** Choices for findings of one file at once; `null` makes a finding unresolved again. */
  | { type: 'secrets'; project: string; relPath: string; changes: ReadonlyArray<{ findingId: string; action: SecretAction | null }> }
  /** The Target step's one switch: keep every earlier import of this source whose source is gone. */
  | { type: 'keepRemoved'; keep: boolean }
  | { type: 'proposal'; id: string | null }
  | { type: 'restore'; draft: ImportDraft }
  | { type: 'reset' };

export const initialWizard: WizardState = {
  step: 'sources',
  reached: 'sources',
  options: { from: 'claude' },
  choices: {},
  proposalId: null,
};

type ProjectChoice = NonNullable<ImportChoices['projects']>[number];
type FileChoice = NonNullable<ImportChoices['files']>[number];
type SecretChoice = NonNullable<ImportChoices['secrets']>[number];

function upsertProject(list: readonly ProjectChoice[] = [], key: string, patch: Omit<ProjectChoice, 'key'>): ProjectChoice[] {
  const current = list.find((item) => item.key === key) ?? { key };
  return [...list.filter((item) => item.key !== key), { ...current, ...patch }];
}

function upsertFile(list: readonly FileChoice[] = [], choice: FileChoice): FileChoice[] {
  return [...list.filter((item) => item.project !== choice.project || item.relPath !== choice.relPath), choice];
}

function upsertSecrets(list: readonly SecretChoice[] = [], action: Extract<WizardAction, { type: 'secrets' }>): SecretChoice[] {
  const { project, relPath, changes } = action;
  const touched = new Set(changes.map((change) => change.findingId));
  const kept = list.filter((item) => item.project !== project || item.relPath !== relPath || !touched.has(item.findingId ?? ''));
  const added = changes.flatMap((change) =>
    change.action ? [{ project, relPath, findingId: change.findingId, action: change.action }] : [],
  );
  return [...kept, ...added];
}

function later(a: ImportStep, b: ImportStep): ImportStep {
  return stepIndex(a) >= stepIndex(b) ? a : b;
}

/** A changed choice drops the proposal, so the steps after Target cannot be jumped to until it is made again. */
function withChoices(state: WizardState, choices: ImportChoices): WizardState {
  const reached = stepIndex(state.reached) > stepIndex('target') ? 'target' : state.reached;
  return { ...state, choices, proposalId: null, reached };
}

function applyChoice(state: WizardState, action: Extract<WizardAction, { type: 'project' | 'file' | 'secrets' }>): WizardState {
  const { choices } = state;
  if (action.type === 'project') {
    const patch: Omit<ProjectChoice, 'key'> = {};
    if (action.include !== undefined) patch.include = action.include;
    if (action.cwd !== undefined) patch.cwd = action.cwd;
    return withChoices(state, { ...choices, projects: upsertProject(choices.projects, action.key, patch) });
  }
  if (action.type === 'file') {
    return withChoices(state, {
      ...choices,
      files: upsertFile(choices.files, { project: action.project, relPath: action.relPath, include: action.include }),
    });
  }
  return withChoices(state, { ...choices, secrets: upsertSecrets(choices.secrets, action) });
}

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'step':
      return { ...state, step: action.step, reached: later(state.reached, action.step) };
    case 'source':
      // Another tool has other projects: earlier choices would not apply.
      return action.from === state.options.from ? state : { ...initialWizard, options: { from: action.from } };
    case 'options':
      return { ...state, options: { ...state.options, ...action.patch }, reached: 'sources', proposalId: null };
    case 'project':
    case 'file':
    case 'secrets':
      return applyChoice(state, action);
    case 'keepRemoved': {
      const { keepRemoved: _previous, ...rest } = state.choices;
      return withChoices(state, action.keep ? { ...rest, keepRemoved: true } : rest);
    }
    case 'proposal':
      return { ...state, proposalId: action.id };
    case 'restore': {
      const { step, options, choices, proposalId } = action.draft;
      return { step, reached: step, options, choices, proposalId };
    }
    case 'reset':
      return initialWizard;
  }
}

/** Drops empty optional fields so the input (and the query key) stays the same for the same options. */
export function sourceOptions(state: Pick<WizardState, 'options'>): ImportSourceOptions {
  const { from, sourceHome, repos, cursorStateDb } = state.options;
  return {
    from,
    ...(sourceHome ? { sourceHome } : {}),
    ...(repos && repos.length > 0 ? { repos } : {}),
    ...(cursorStateDb ? { cursorStateDb } : {}),
  };
}

export function planInput(state: Pick<WizardState, 'options' | 'choices'>): ImportPlanInput {
  return { ...sourceOptions(state), choices: state.choices };
}

export function toDraft(state: WizardState): Omit<ImportDraft, 'savedAt'> {
  return { step: state.step, options: sourceOptions(state), choices: state.choices, proposalId: state.proposalId };
}

/** A draft worth offering to resume: past the first step, or with anything chosen. */
export function isResumable(draft: ImportDraft | null | undefined): draft is ImportDraft {
  if (!draft) return false;
  const { projects = [], files = [], secrets = [] } = draft.choices;
  return draft.step !== 'sources' || !!draft.options.sourceHome || projects.length + files.length + secrets.length > 0;
}
