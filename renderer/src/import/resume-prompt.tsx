// Shown when the wizard opens on a saved draft: "Resume import from <step>?" or "Start over".
import { useEffect, useRef } from 'react';
import type { ImportDraft } from '../../../shared/import';
import { formatTime } from '../lib/format';
import { sourceLabels } from './sources-step';
import { stepLabels } from './wizard-steps';

export interface ResumePromptProps {
  draft: ImportDraft;
  active: boolean;
  onResume: () => void;
  onStartOver: () => void;
}

export function ResumePrompt({ draft, active, onResume, onStartOver }: ResumePromptProps) {
  const resume = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (active) resume.current?.focus();
  }, [active]);
  return (
    <section className="card import-resume" data-testid="import-resume" data-step={draft.step} aria-labelledby="import-resume-title">
      <h2 id="import-resume-title">Resume import from {stepLabels[draft.step]}?</h2>
      <p className="muted">
        An import of {sourceLabels[draft.options.from]} memory
        {draft.options.sourceHome ? (
          <>
            {' '}
            from <code>{draft.options.sourceHome}</code>
          </>
        ) : null}{' '}
        was left at the {stepLabels[draft.step]} step ({formatTime(draft.savedAt)}). Your choices so far are kept.
      </p>
      <div className="import-done-actions">
        <button ref={resume} type="button" className="button button-primary" data-testid="resume-import" onClick={onResume}>
          Resume from {stepLabels[draft.step]}
        </button>
        <button type="button" className="button" data-testid="start-over" onClick={onStartOver}>
          Start over
        </button>
      </div>
    </section>
  );
}
