// The navigation state of the window (view, open file or session, Back) and the actions every view uses to move.
import { useCallback, useMemo, useReducer } from 'react';
import type { MemoryVersion } from '../../../shared/domain';
import { initialNav, navReducer, type FileTarget, type FilesLocation, type LineSpan, type View } from './location';

export interface Navigation {
  view: View;
  /** The Files view's location in the current home, or null. */
  location: FilesLocation | null;
  /** Where Back leads, or null. */
  previous: FilesLocation | null;
  setView: (view: View) => void;
  openFile: (version: MemoryVersion, path: string, span?: LineSpan) => void;
  openSession: (threadId: string) => void;
  back: () => void;
  /** The proposal the Review view shows (null: the first pending one). */
  proposalId: string | null;
  /** Shows a proposal in the Review view. */
  openProposal: (id: string | null) => void;
}

export function useNavigation(codexHome: string | undefined): Navigation {
  const [state, dispatch] = useReducer(navReducer, initialNav);
  const current = codexHome !== undefined && state.codexHome === codexHome;

  const setView = useCallback((view: View) => dispatch({ type: 'view', view }), []);
  const openFile = useCallback(
    (version: MemoryVersion, path: string, span?: LineSpan) => {
      if (codexHome === undefined) return;
      const target: FileTarget = span ? { version, path, span } : { version, path };
      dispatch({ type: 'open-file', codexHome, target });
    },
    [codexHome],
  );
  const openSession = useCallback(
    (threadId: string) => {
      if (codexHome !== undefined) dispatch({ type: 'open-session', codexHome, threadId });
    },
    [codexHome],
  );
  const back = useCallback(() => dispatch({ type: 'back' }), []);
  const openProposal = useCallback(
    (id: string | null) => {
      if (codexHome !== undefined) dispatch({ type: 'open-proposal', codexHome, id });
    },
    [codexHome],
  );

  return useMemo(
    () => ({
      view: state.view,
      location: current ? state.location : null,
      previous: current ? (state.history[state.history.length - 1] ?? null) : null,
      setView,
      openFile,
      openSession,
      back,
      proposalId: current ? state.proposalId : null,
      openProposal,
    }),
    [state, current, setView, openFile, openSession, back, openProposal],
  );
}
