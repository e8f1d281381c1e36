// The import wizard's reducer: a changed choice drops the proposal and the steps after Target, drafts and resuming.
import { describe, expect, it } from 'vitest';
import {
  initialWizard,
  isResumable,
  planInput,
  toDraft,
  wizardReducer,
  type WizardAction,
  type WizardState,
} from '../../renderer/src/import/wizard-model';

const run = (actions: WizardAction[], from: WizardState = initialWizard) => actions.reduce(wizardReducer, from);

describe('wizard model', () => {
  it('remembers the furthest step reached when going back', () => {
    const state = run([
      { type: 'step', step: 'files' },
      { type: 'step', step: 'projects' },
    ]);
    expect(state).toMatchObject({ step: 'projects', reached: 'files' });
  });

  it('drops the proposal and pulls reached back to Target when a choice changes after Review', () => {
    const state = run([
      { type: 'step', step: 'review' },
      { type: 'proposal', id: 'p1' },
      { type: 'file', project: 'webapp', relPath: 'CLAUDE.md', include: false },
    ]);
    expect(state.proposalId).toBeNull();
    expect(state.reached).toBe('target');
    expect(state.choices.files).toEqual([{ project: 'webapp', relPath: 'CLAUDE.md', include: false }]);
  });

  it('keeps one choice per project and per file, merging project fields', () => {
    const state = run([
      { type: 'project', key: 'webapp', include: false },
      { type: 'project', key: 'webapp', cwd: '/home/dana/src/webapp' },
      { type: 'file', project: 'webapp', relPath: 'a.md', include: false },
      { type: 'file', project: 'webapp', relPath: 'a.md', include: true },
    ]);
    expect(state.choices.projects).toEqual([{ key: 'webapp', include: false, cwd: '/home/dana/src/webapp' }]);
    expect(state.choices.files).toEqual([{ project: 'webapp', relPath: 'a.md', include: true }]);
  });

  it('replaces the secret choices it names and forgets those set back to unresolved', () => {
    const state = run([
      {
        type: 'secrets',
        project: 'p',
        relPath: 'a.md',
        changes: [
          { findingId: 'f1', action: 'redact' },
          { findingId: 'f2', action: 'redact' },
        ],
      },
      { type: 'secrets', project: 'p', relPath: 'a.md', changes: [{ findingId: 'f1', action: null }] },
    ]);
    expect(state.choices.secrets).toEqual([{ project: 'p', relPath: 'a.md', findingId: 'f2', action: 'redact' }]);
  });

  it('starts over for another source, and not for the same one', () => {
    const chosen = run([{ type: 'project', key: 'webapp', include: false }]);
    expect(wizardReducer(chosen, { type: 'source', from: 'claude' })).toBe(chosen);
    expect(wizardReducer(chosen, { type: 'source', from: 'cursor' })).toEqual({ ...initialWizard, options: { from: 'cursor' } });
  });

  it('keeps empty options out of the plan input so the same options give the same key', () => {
    const state = run([
      { type: 'options', patch: { sourceHome: '', repos: [] } },
      { type: 'keepRemoved', keep: true },
    ]);
    expect(planInput(state)).toEqual({ from: 'claude', choices: { keepRemoved: true } });
    expect(planInput(wizardReducer(state, { type: 'keepRemoved', keep: false }))).toEqual({ from: 'claude', choices: {} });
  });

  it('offers a draft to resume only when something was done, and restores it', () => {
    const draft = { ...toDraft(initialWizard), savedAt: 1 };
    expect(isResumable(draft)).toBe(false);
    expect(isResumable(null)).toBe(false);
    const later = { ...toDraft(run([{ type: 'step', step: 'secrets' }])), savedAt: 2 };
    expect(isResumable(later)).toBe(true);
    expect(wizardReducer(initialWizard, { type: 'restore', draft: later })).toMatchObject({ step: 'secrets', reached: 'secrets' });
  });
});
