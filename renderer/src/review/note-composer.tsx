// The ad-hoc note composer: a slug and a text become a new file under extensions/ad_hoc/notes/, as a proposal.
import { useState, type FormEvent } from 'react';
import type { MemoryVersion } from '../../../shared/domain';
import { useStudioMutation } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from '../common/error-panel';

export interface NoteComposerProps {
  versions: readonly MemoryVersion[];
  preferred: MemoryVersion | null;
  onProposed: (id: string) => void;
  onCancel: () => void;
}

/** Codex's note names: lowercase letters, digits and hyphens, starting with a letter or digit. */
const SLUG = /^[a-z0-9][a-z0-9-]*$/;

export function NoteComposer({ versions, preferred, onProposed, onCancel }: NoteComposerProps) {
  const note = useStudioMutation('review.note');
  const [version, setVersion] = useState<MemoryVersion>(preferred ?? versions[0] ?? 'v1');
  const [slug, setSlug] = useState('');
  const [text, setText] = useState('');
  const slugOk = SLUG.test(slug);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!slugOk || text.trim() === '') return;
    note.mutate({ version, slug, text }, { onSuccess: (proposal) => onProposed(proposal.id) });
  };
  return (
    <form className="note-composer" data-testid="note-composer" onSubmit={submit} aria-labelledby="note-title">
      <h3 id="note-title">New ad-hoc note</h3>
      <p className="muted small">
        Codex reads notes under <code>extensions/ad_hoc/notes/</code> at its next consolidation and folds them into memory; unlike a hand
        edit of <code>raw_memories.md</code>, a note is not overwritten.
      </p>
      {versions.length > 1 ? (
        <label className="field">
          <span>Root</span>
          <select value={version} onChange={(event) => setVersion(event.target.value as MemoryVersion)}>
            {versions.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <label className="field">
        <span>Name (slug)</span>
        <input
          data-testid="note-slug"
          value={slug}
          onChange={(event) => setSlug(event.target.value.toLowerCase())}
          placeholder="prefer-pnpm"
          maxLength={80}
          aria-invalid={slug !== '' && !slugOk}
        />
      </label>
      {slug !== '' && !slugOk ? (
        <p className="text-danger small">Use lowercase letters, digits and hyphens, starting with a letter or digit.</p>
      ) : null}
      <label className="field">
        <span>Note</span>
        <textarea
          data-testid="note-text"
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={6}
          placeholder="What Codex should remember…"
        />
      </label>
      {note.error ? <ErrorPanel compact title="Cannot propose the note" error={toStudioError(note.error)} /> : null}
      <div className="apply-actions">
        <button
          type="submit"
          className="button button-primary"
          data-testid="note-propose"
          disabled={!slugOk || text.trim() === '' || note.isPending}
        >
          {note.isPending ? 'Proposing…' : 'Propose note'}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
