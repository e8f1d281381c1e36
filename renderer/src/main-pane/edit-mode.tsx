// Edit mode for the open file: Edit makes Monaco writable, Propose turns the text into a proposal, never a direct save.
import { useRef, useState, type RefObject } from 'react';
import type { FileContent, MemoryVersion } from '../../../shared/domain';
import { useStudioMutation } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';
import { useKeyScope } from '../keymap/use-keys';
import { NoteComposer } from '../review/note-composer';

export type EditPhase = 'viewing' | 'warning' | 'editing';

export interface EditMode {
  phase: EditPhase;
  draft: string | null;
  canEdit: boolean;
  start: () => void;
  confirmRegenerated: () => void;
  cancel: () => void;
  setDraft: (text: string) => void;
  /** The proposal's title and description (what the change is for), typed while editing. */
  about: { title: string; description: string };
  setAbout: (about: { title: string; description: string }) => void;
  propose: () => void;
  proposing: boolean;
  error: Error | null;
}

export function useEditMode(file: FileContent, onProposed: (id: string) => void): EditMode {
  const propose = useStudioMutation('review.propose');
  const fileId = `${file.version}:${file.path}`;
  const [state, setState] = useState<{ fileId: string; phase: EditPhase; draft: string | null }>({ fileId, phase: 'viewing', draft: null });
  const [about, setAbout] = useState({ title: '', description: '' });
  // The draft as of the editor's last change, set at once: Ctrl+Enter can come before the render that change asks
  // for, and must propose every keystroke typed before it, not the text of the last render.
  const latest = useRef<{ fileId: string; draft: string } | null>(null);
  // Opening another file leaves edit mode.
  const current = state.fileId === fileId ? state : { fileId, phase: 'viewing' as const, draft: null };
  const setStateAndLatest = (next: { fileId: string; phase: EditPhase; draft: string | null }) => {
    latest.current = next.draft === null ? null : { fileId: next.fileId, draft: next.draft };
    setState(next);
  };
  const edit = () => {
    setAbout({ title: '', description: '' });
    setStateAndLatest({ fileId, phase: 'editing', draft: file.content });
  };
  return {
    phase: current.phase,
    draft: current.draft,
    // Core says what an edit amounts to: a file Codex regenerates warns first (the edit would not last).
    canEdit: file.editing !== 'none',
    start: () => (file.editing === 'regenerated' ? setStateAndLatest({ fileId, phase: 'warning', draft: null }) : edit()),
    confirmRegenerated: edit,
    cancel: () => {
      propose.reset();
      setStateAndLatest({ fileId, phase: 'viewing', draft: null });
    },
    setDraft: (text) => {
      if (latest.current?.fileId === fileId) latest.current = { fileId, draft: text };
      setState((s) => (s.fileId === fileId ? { ...s, draft: text } : s));
    },
    about,
    setAbout,
    propose: () => {
      const draft = latest.current?.fileId === fileId ? latest.current.draft : null;
      if (current.phase !== 'editing' || draft === null) return;
      propose.mutate(
        {
          version: file.version,
          path: file.path,
          content: draft,
          ...(about.title.trim() ? { title: about.title.trim() } : {}),
          ...(about.description.trim() ? { description: about.description.trim() } : {}),
        },
        {
          onSuccess: (proposal) => {
            setStateAndLatest({ fileId, phase: 'viewing', draft: null });
            onProposed(proposal.id);
          },
        },
      );
    },
    proposing: propose.isPending,
    error: propose.error,
  };
}

/** Ctrl+Enter (Cmd+Enter) anywhere in the file view while editing proposes the edit, once (not while one is on its way). */
export function useProposeKey(element: RefObject<HTMLElement | null>, mode: EditMode): void {
  useKeyScope(
    element,
    'edit',
    {
      'edit.propose': () => {
        if (!mode.proposing) mode.propose();
      },
    },
    mode.phase === 'editing',
  );
}

export function EditActions({ mode }: { mode: EditMode }) {
  if (!mode.canEdit) return null;
  if (mode.phase !== 'editing') {
    return (
      <button
        type="button"
        className="button button-small"
        data-testid="edit-button"
        onClick={mode.start}
        disabled={mode.phase === 'warning'}
      >
        Edit
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        className="button button-small button-primary"
        data-testid="propose-button"
        onClick={mode.propose}
        disabled={mode.proposing}
      >
        {mode.proposing ? 'Proposing…' : 'Propose'}
      </button>
      <button type="button" className="button button-small" data-testid="cancel-edit" onClick={mode.cancel} disabled={mode.proposing}>
        Cancel
      </button>
    </>
  );
}

interface EditNoticesProps {
  mode: EditMode;
  path: string;
  versions: readonly MemoryVersion[];
  version: MemoryVersion;
  onProposed: (id: string) => void;
}

/** The warning before editing a regenerated file (with the lasting alternative), and what edit mode means. */
export function EditNotices({ mode, path, versions, version, onProposed }: EditNoticesProps) {
  const [noteOpen, setNoteOpen] = useState(false);
  if (mode.phase === 'warning') {
    return (
      <div className="notice notice-warn edit-warning" role="alert" data-testid="regenerated-warning">
        <p>
          <strong>Codex regenerates {path} at its next consolidation</strong>, so an edit here is overwritten. To change what Codex
          remembers for good, write an ad-hoc note: Codex reads it at the next consolidation and folds it into memory.
        </p>
        <div className="apply-actions">
          <button type="button" className="button button-small button-primary" onClick={() => setNoteOpen(true)}>
            Write an ad-hoc note instead
          </button>
          <button type="button" className="button button-small" data-testid="edit-anyway" onClick={mode.confirmRegenerated}>
            Edit anyway
          </button>
          <button type="button" className="button button-small" onClick={mode.cancel}>
            Cancel
          </button>
        </div>
        {noteOpen ? (
          <NoteComposer versions={versions} preferred={version} onProposed={onProposed} onCancel={() => setNoteOpen(false)} />
        ) : null}
      </div>
    );
  }
  if (mode.phase !== 'editing') return null;
  return (
    <div className="notice notice-info edit-banner" role="status">
      Editing {path}. Propose turns your changes into a proposal to review in the Review view; nothing is written until you apply it.
      <div className="propose-about">
        <label className="field">
          <span>Title</span>
          <input
            data-testid="propose-title"
            value={mode.about.title}
            maxLength={200}
            placeholder={`Edit ${path}`}
            onChange={(event) => mode.setAbout({ ...mode.about, title: event.target.value })}
          />
        </label>
        <label className="field">
          <span>Description (optional): why this change</span>
          <textarea
            data-testid="propose-description"
            rows={2}
            maxLength={2000}
            value={mode.about.description}
            onChange={(event) => mode.setAbout({ ...mode.about, description: event.target.value })}
          />
        </label>
      </div>
      {mode.error ? <ErrorPanel compact title="Cannot propose this edit" error={toStudioError(mode.error)} /> : null}
    </div>
  );
}
