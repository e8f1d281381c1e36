// Keeps the wizard resumable: reads the saved draft once (to offer "Resume"), then saves every change through `import.saveDraft`.
import { useCallback, useEffect, useReducer, useRef, useState, type Dispatch } from 'react';
import type { ImportDraft } from '../../../shared/import';
import { useStudioMutation, useStudioQuery } from '../api/studio-query';
import { initialWizard, isResumable, toDraft, wizardReducer, type WizardAction, type WizardState } from './wizard-model';

/** `asking`: a draft was found and the person has not said whether to resume it. */
export type DraftPhase = 'loading' | 'asking' | 'ready';
export type SaveStatus = 'idle' | 'saving' | 'saved' | 'error';

export interface WizardDraft {
  state: WizardState;
  dispatch: Dispatch<WizardAction>;
  phase: DraftPhase;
  /** The draft on offer while `asking`. */
  offered: ImportDraft | null;
  resume: () => void;
  startOver: () => void;
  saveStatus: SaveStatus;
  saveError: Error | null;
  /** Forgets the draft for good (after Apply: the import is done). */
  finish: () => void;
  /** A new import from the first step (after Done). */
  restart: () => void;
}

const SAVE_DELAY_MS = 150;

function useAutosave(state: WizardState, enabled: boolean) {
  const save = useStudioMutation('import.saveDraft');
  const { mutate } = save; // stable across renders, unlike the result object
  const [status, setStatus] = useState<SaveStatus>('idle');
  const first = useRef(true);
  const serial = JSON.stringify(toDraft(state));
  useEffect(() => {
    if (!enabled) return undefined;
    // The state the wizard opened with is what is saved already (or nothing worth saving).
    if (first.current) {
      first.current = false;
      return undefined;
    }
    setStatus('saving');
    const timer = window.setTimeout(() => {
      mutate(
        { draft: JSON.parse(serial) as Omit<ImportDraft, 'savedAt'> },
        {
          onSuccess: () => setStatus('saved'),
          onError: () => setStatus('error'),
        },
      );
    }, SAVE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [serial, enabled, mutate]);
  return { status, error: save.error };
}

export function useWizardDraft(): WizardDraft {
  const draft = useStudioQuery('import.draft', {});
  const clear = useStudioMutation('import.clearDraft');
  const [state, dispatch] = useReducer(wizardReducer, initialWizard);
  const [decided, setDecided] = useState(false);
  const [finished, setFinished] = useState(false);
  const offered = isResumable(draft.data) ? draft.data : null;
  const settled = draft.isSuccess || draft.isError;
  const phase: DraftPhase = decided || (settled && !offered) ? 'ready' : settled ? 'asking' : 'loading';
  const saving = useAutosave(state, phase === 'ready' && !finished && state.step !== 'done');

  const resume = useCallback(() => {
    if (offered) dispatch({ type: 'restore', draft: offered });
    setDecided(true);
  }, [offered]);
  const startOver = useCallback(() => {
    clear.mutate({});
    dispatch({ type: 'reset' });
    setDecided(true);
  }, [clear]);
  const finish = useCallback(() => {
    setFinished(true);
    clear.mutate({});
  }, [clear]);

  const restart = useCallback(() => {
    setFinished(false);
    dispatch({ type: 'reset' });
  }, []);

  return { state, dispatch, phase, offered, resume, startOver, saveStatus: saving.status, saveError: saving.error, finish, restart };
}
