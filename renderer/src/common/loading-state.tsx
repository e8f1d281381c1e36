// The one loading indicator: a spinner with words, announced politely to screen readers.

export interface LoadingStateProps {
  label: string;
  /** Compact variant for rows and headers. */
  inline?: boolean;
}

export function LoadingState({ label, inline = false }: LoadingStateProps) {
  return (
    <div className={inline ? 'loading loading-inline' : 'loading'} role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
