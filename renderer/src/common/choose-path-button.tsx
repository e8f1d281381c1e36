// "Choose…": main's native dialog for a folder or file a page may not name by itself (the app only; serve has none).
import type { ChannelInput } from '../../../shared/contract';
import { useStudioMutation, useStudioQuery } from '../api/studio-query';
import { toStudioError } from '../api/studio-request-error';
import { ErrorPanel } from './error-panel';

export interface ChoosePathButtonProps {
  purpose: ChannelInput<'app.choosePath'>['purpose'];
  /** What the button picks, for screen readers ("Choose the Claude Code home"). */
  label: string;
  onChosen: (path: string) => void;
}

/** Renders nothing where the host has no dialogs: there a path comes from the detected ones or the command line. */
export function ChoosePathButton({ purpose, label, onChosen }: ChoosePathButtonProps) {
  const info = useStudioQuery('app.info', {});
  const choose = useStudioMutation('app.choosePath');
  if (info.data?.host !== 'electron') return null;
  return (
    <>
      <button
        type="button"
        className="button button-small"
        aria-label={label}
        data-testid={`choose-${purpose}`}
        disabled={choose.isPending}
        onClick={() => choose.mutate({ purpose }, { onSuccess: ({ path }) => (path ? onChosen(path) : undefined) })}
      >
        Choose…
      </button>
      {choose.error ? <ErrorPanel compact title="Cannot use that" error={toStudioError(choose.error)} /> : null}
    </>
  );
}
